public import CourierHTTP
public import FoundationEssentials

/// Validates a response and returns its body unchanged: `AFHTTPResponseSerializer`'s behaviour.
///
/// The body is returned even when validation fails, with the error alongside, as AFNetworking does;
/// a missing body stays `nil` and an empty one stays empty.
///
/// ```swift
/// let serializer = DataResponseSerializer()
/// let outcome = serializer.serializedResponse(response: response, data: body, request: request)
/// outcome.value  // the bytes, always
/// outcome.error  // "Request failed: internal server error (500)" on a 500
/// ```
public struct DataResponseSerializer: ValidatingResponseSerializer {
    /// The checks; 200...299 and any content type by default.
    public var validator: ResponseValidator

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = DataResponseSerializer(validator: ResponseValidator(acceptableContentTypes: ["image/png"]))
    /// ```
    public init(validator: ResponseValidator = ResponseValidator()) {
        self.validator = validator
    }

    /// The body, with the validation error if the response is not acceptable.
    ///
    /// ```swift
    /// let bytes = try DataResponseSerializer().serialize(response: response, data: body)
    /// ```
    public func serializedResponse(response: HTTPResponse?, data: Data?, request: HTTPRequest?) -> SerializedResponse<
        Data
    > {
        SerializedResponse(value: data, error: validator.validate(response: response, data: data, request: request))
    }
}
