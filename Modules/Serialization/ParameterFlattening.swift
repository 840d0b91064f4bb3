/// One flattened (field, value) pair; the value is a scalar or ``ParameterValue/null``.
public struct FlattenedParameter: Sendable, Hashable {
    /// The unescaped field name, such as `user[tags][]`.
    public let field: String
    /// The scalar value.
    public let value: ParameterValue
}

extension ParameterValue {
    /// Flattens a parameter dictionary with AFNetworking's rules, in order.
    ///
    /// - Dictionary keys are sorted by UTF-16 code units at each level; nested keys become
    ///   `prefix[key]`.
    /// - Array elements keep their order, each under `prefix[]`.
    /// - Set members are sorted by ``textValue`` (ties broken by kind, then bytes), each under the
    ///   same `prefix` (no `[]`).
    /// - Empty containers contribute nothing: the key disappears.
    ///
    /// ```swift
    /// ParameterValue.flatten(["user": ["tags": ["a", "b"]], "q": "x"]).map(\.field)
    /// // ["q", "user[tags][]", "user[tags][]"]
    /// ```
    public static func flatten(_ parameters: Parameters) -> [FlattenedParameter] {
        var result: [FlattenedParameter] = []
        result.reserveCapacity(parameters.count)
        for key in parameters.keys.sorted(by: precedes) {
            if let value = parameters[key] { value.flatten(under: key, into: &result) }
        }
        return result
    }

    private func flatten(under prefix: String, into result: inout [FlattenedParameter]) {
        switch self {
        case .dictionary(let dictionary):
            for key in dictionary.keys.sorted(by: Self.precedes) {
                dictionary[key]?.flatten(under: prefix + "[" + key + "]", into: &result)
            }
        case .array(let values):
            let field = prefix + "[]"
            for value in values { value.flatten(under: field, into: &result) }
        case .set(let values):
            for value in values.sorted(by: ParameterValue.setMemberPrecedes) {
                value.flatten(under: prefix, into: &result)
            }
        default:
            result.append(FlattenedParameter(field: prefix, value: self))
        }
    }
}
