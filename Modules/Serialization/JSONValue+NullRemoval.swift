/// AFNetworking 4's `AFJSONObjectByRemovingKeysWithNullValues`.
///
/// ```swift
/// let cleaned = json.removingNullValues()
/// ```
extension JSONValue {
    /// A copy with every `null` object member and every `null` array element removed, at any depth.
    ///
    /// This is AFNetworking 4's rule; AFNetworking 3 kept `null` array elements. Scalars, including a
    /// top-level `null`, are returned unchanged.
    ///
    /// ```swift
    /// let json: JSONValue = ["a": nil, "b": [1, nil, ["c": nil]]]
    /// json.removingNullValues()  // ["b": [1, [:]]]
    /// ```
    public func removingNullValues() -> JSONValue {
        switch self {
        case .array(let elements):
            return .array(elements.filter { !$0.isNull }.map { $0.removingNullValues() })
        case .object(let members):
            return .object(members.filter { !$0.value.isNull }.mapValues { $0.removingNullValues() })
        default:
            return self
        }
    }
}
