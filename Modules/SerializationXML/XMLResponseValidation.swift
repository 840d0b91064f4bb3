internal import CourierHTTP
internal import CourierSerialization
internal import FoundationEssentials

/// AFNetworking's validation step for its XML serializers, on `CourierSerialization`'s
/// `ResponseValidator`: an unacceptable content type anywhere in the chain stops the serializer; a
/// status failure does not, and is reported next to the value.
enum XMLResponseValidation {
    /// Stops with the error, or carries on with the status error (if any).
    static func validate(
        _ validator: ResponseValidator,
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> Result<SerializationError?, SerializationError> {
        let error = validator.validate(response: response, data: data, request: request)
        if let error, error.contains(.unacceptableContentType) { return .failure(error) }
        return .success(error)
    }

    /// The malformed-XML error: the parse failure outside, the status error (if any) beneath it and
    /// the ``XMLParseError`` at the bottom, as AFNetworking chains a parse error over validation.
    static func invalidXML(
        _ parseError: XMLParseError,
        validationError: SerializationError?,
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializationError {
        SerializationError(
            code: .invalidXML,
            domain: .response,
            urlErrorCode: parseError.code,
            localizedDescription: "The XML could not be parsed: line \(parseError.line), column \(parseError.column).",
            failureReason: parseError.description,
            failingURL: response?.url ?? request?.url,
            response: response,
            data: data,
            underlying: SerializationError.chain(validationError, underlying: parseError)
        )
    }
}
