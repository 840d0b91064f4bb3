public import CourierHTTP
public import FoundationEssentials

/// Validates a response and parses its body as a property list: `AFPropertyListResponseSerializer`.
///
/// - Acceptable type: `application/x-plist` only, as in AFNetworking.
/// - A content-type failure stops before parsing; a status failure does not.
/// - A missing or empty body is no value and no error (a `204 No Content`). AFNetworking skips only a
///   missing body; the transport delivers an empty one for a 204, so both are treated alike.
/// - An unparsable body is a ``SerializationError/Code/invalidPropertyList`` error (code 3840,
///   Foundation's text, the parser's explanation as failure reason) with the validation error and
///   the parser's error beneath it. Nesting deeper than 512 levels and, in binary lists, reference
///   cycles are refused the same way before the parser runs, because the parser would overflow its
///   stack on them.
///
/// ```swift
/// let serializer = PropertyListResponseSerializer()
/// let plist = try serializer.serialize(response: response, data: body)
/// plist?["Version"]?.integerValue
/// ```
public struct PropertyListResponseSerializer: ValidatingResponseSerializer {
    /// `application/x-plist`, AFNetworking's acceptable type.
    public static let defaultAcceptableContentTypes: Set<String> = ["application/x-plist"]

    /// The checks; 200...299 and ``defaultAcceptableContentTypes`` by default.
    public var validator: ResponseValidator

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = PropertyListResponseSerializer(validator: ResponseValidator(acceptableContentTypes: nil))
    /// ```
    public init(
        validator: ResponseValidator = ResponseValidator(
            acceptableContentTypes: PropertyListResponseSerializer.defaultAcceptableContentTypes
        )
    ) {
        self.validator = validator
    }

    /// The parsed property list, the error, both, or neither (an empty body).
    ///
    /// ```swift
    /// let outcome = PropertyListResponseSerializer().serializedResponse(response: response, data: body, request: nil)
    /// ```
    public func serializedResponse(
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializedResponse<PropertyListValue> {
        let context: ResponseFailure.Context
        switch ResponseFailure.Context.validating(validator, response: response, data: data, request: request) {
        case .success(let validated): context = validated
        case .failure(let contentTypeError): return SerializedResponse(value: nil, error: contentTypeError)
        }
        guard let data, !data.isEmpty else { return SerializedResponse(value: nil, error: context.validationError) }
        if let reason = PropertyListNestingLimit.violation(in: data) {
            return SerializedResponse(value: nil, error: Self.invalidPropertyList(reason, nil, context))
        }
        do {
            let value = try PropertyListDecoder().decode(PropertyListValue.self, from: data)
            return SerializedResponse(value: value, error: context.validationError)
        } catch {
            return SerializedResponse(
                value: nil,
                error: Self.invalidPropertyList(ResponseFailure.reason(for: error), error, context)
            )
        }
    }

    private static func invalidPropertyList(
        _ reason: String,
        _ cause: (any Error)?,
        _ context: ResponseFailure.Context
    ) -> SerializationError {
        ResponseFailure.make(
            .invalidPropertyList,
            urlErrorCode: 3840,
            description: ResponseFailure.unreadableDataDescription,
            failureReason: reason,
            cause: cause,
            context: context
        )
    }
}
