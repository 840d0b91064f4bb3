public import CourierHTTP
public import FoundationEssentials

/// Validates a response and decodes its body as text in the charset `Content-Type` names.
///
/// The charset comes from ``encoding`` when set, else from the `charset` parameter of
/// `Content-Type`, else UTF-8 (the default of RFC 8259 for JSON and of most text APIs; RFC 2046's
/// historical US-ASCII default for `text/*` is not applied, since UTF-8 is a superset of it).
/// A charset Courier does not decode is a ``SerializationError/Code/unsupportedCharset`` error
/// naming it; bytes that are not valid in the charset are a
/// ``SerializationError/Code/invalidStringEncoding`` error: text is never silently repaired. An empty
/// or missing body is the empty string. As in AFNetworking's serializers, a content-type failure
/// stops decoding and a status failure does not: the text comes back with the status error.
///
/// ```swift
/// let serializer = StringResponseSerializer()
/// let text = try serializer.serialize(response: response, data: body)  // "café"
///
/// let forced = StringResponseSerializer(encoding: .isoLatin1)  // ignore what the server says
/// ```
public struct StringResponseSerializer: ValidatingResponseSerializer {
    /// The checks; 200...299 and any content type by default.
    public var validator: ResponseValidator
    /// The charset to decode with regardless of `Content-Type`; `nil` reads it from the response.
    public var encoding: Charset?

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = StringResponseSerializer(encoding: nil, validator: ResponseValidator(acceptableContentTypes: ["text/plain"]))
    /// ```
    public init(encoding: Charset? = nil, validator: ResponseValidator = ResponseValidator()) {
        self.encoding = encoding
        self.validator = validator
    }

    /// The body as text, with the validation error alongside when the status is not acceptable.
    ///
    /// ```swift
    /// let outcome = StringResponseSerializer().serializedResponse(response: response, data: body, request: nil)
    /// ```
    public func serializedResponse(
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializedResponse<String> {
        let context: ResponseFailure.Context
        switch ResponseFailure.Context.validating(validator, response: response, data: data, request: request) {
        case .success(let validated): context = validated
        case .failure(let contentTypeError): return SerializedResponse(value: nil, error: contentTypeError)
        }
        // Empty is empty in every charset, named or not.
        guard let data, !data.isEmpty else { return SerializedResponse(value: "", error: context.validationError) }
        let charset: Charset
        if let encoding {
            charset = encoding
        } else if let name = response?.textEncodingName {
            guard let named = Charset(name: name) else {
                let supported = Charset.allCases.map(\.rawValue).joined(separator: ", ")
                let error = ResponseFailure.make(
                    .unsupportedCharset,
                    urlErrorCode: 0,
                    description: "Unsupported charset \"\(name)\"",
                    failureReason: "Supported charsets: \(supported)",
                    cause: nil,
                    context: context
                )
                return SerializedResponse(value: nil, error: error)
            }
            charset = named
        } else {
            charset = .utf8
        }
        do {
            return SerializedResponse(value: try charset.decode(data), error: context.validationError)
        } catch {
            let failure = ResponseFailure.make(
                .invalidStringEncoding,
                urlErrorCode: 0,
                description: "The response body is not valid \(charset.rawValue)",
                failureReason: error.reason,
                cause: error,
                context: context
            )
            return SerializedResponse(value: nil, error: failure)
        }
    }
}
