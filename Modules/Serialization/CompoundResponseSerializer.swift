public import CourierHTTP
public import FoundationEssentials

/// Tries several serializers in order: `AFCompoundResponseSerializer`.
///
/// The first child that produces a value wins, and its error, if any, is reported with it. When no
/// child produces a value, the compound behaves as ``DataResponseSerializer`` with its *own*
/// validator (200...299, any type, by default): it returns the raw body and its own validation
/// error. The value's type is whatever the winning child produces, so callers cast it.
///
/// ```swift
/// let serializer = CompoundResponseSerializer([JSONResponseSerializer(), PropertyListResponseSerializer()])
/// let outcome = serializer.serializedResponse(response: response, data: body, request: request)
/// switch outcome.value {
/// case let json as JSONValue: use(json)
/// case let plist as PropertyListValue: use(plist)
/// case let bytes as Data: keep(bytes)
/// default: break
/// }
/// ```
public struct CompoundResponseSerializer: ValidatingResponseSerializer {
    /// The children, tried in order.
    public var serializers: [any ResponseSerializing]
    /// The checks used when no child produces a value; 200...299 and any type by default.
    public var validator: ResponseValidator

    /// Creates a compound serializer.
    ///
    /// ```swift
    /// let serializer = CompoundResponseSerializer([JSONResponseSerializer(), StringResponseSerializer()])
    /// ```
    public init(_ serializers: [any ResponseSerializing], validator: ResponseValidator = ResponseValidator()) {
        self.serializers = serializers
        self.validator = validator
    }

    /// The first child's value, or the raw body with this serializer's own validation error.
    ///
    /// ```swift
    /// let outcome = serializer.serializedResponse(response: response, data: body, request: nil)
    /// ```
    public func serializedResponse(
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializedResponse<any Sendable> {
        for serializer in serializers {
            let outcome = Self.erasedOutcome(of: serializer, response: response, data: data, request: request)
            if outcome.value != nil { return outcome }
        }
        let fallback = DataResponseSerializer(validator: validator)
        return fallback.serializedResponse(response: response, data: data, request: request).map { $0 as any Sendable }
    }

    private static func erasedOutcome<Serializer: ResponseSerializing>(
        of serializer: Serializer,
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializedResponse<any Sendable> {
        serializer.serializedResponse(response: response, data: data, request: request).map { $0 as any Sendable }
    }
}
