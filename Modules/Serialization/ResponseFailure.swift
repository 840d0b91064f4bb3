internal import CourierHTTP
internal import FoundationEssentials

/// Builds the errors that response serializers report, with AFNetworking's chaining.
///
/// A failure to produce a value is the outer error. Beneath it comes the validation error that
/// AFNetworking attaches (a status failure; content-type failures stop serializers before they read
/// the body), and at the bottom the parser's or decoder's own error, so that walking
/// ``SerializationError/underlying`` visits the failure, then the validation, then the cause.
enum ResponseFailure {
    /// Foundation's description of `NSPropertyListReadCorruptError` and JSON syntax errors (3840).
    static let unreadableDataDescription = "The data couldn’t be read because it isn’t in the correct format."

    /// Context shared by every error about one response.
    struct Context {
        let response: HTTPResponse?
        let data: Data?
        let request: HTTPRequest?
        let validationError: SerializationError?

        var failingURL: URL? { response?.url ?? request?.url }

        /// Validates a response for a serializer that reads the body: AFNetworking stops such a
        /// serializer on an unacceptable content type (the error is returned), while a status failure
        /// is only carried along in the context, to be reported next to the value.
        static func validating(
            _ validator: ResponseValidator,
            response: HTTPResponse?,
            data: Data?,
            request: HTTPRequest?
        ) -> Result<Context, SerializationError> {
            let validationError = validator.validate(response: response, data: data, request: request)
            if let validationError, validationError.contains(.unacceptableContentType) {
                return .failure(validationError)
            }
            return .success(Context(response: response, data: data, request: request, validationError: validationError))
        }
    }

    static func make(
        _ code: SerializationError.Code,
        urlErrorCode: Int,
        description: String,
        failureReason: String?,
        cause: (any Error)?,
        context: Context
    ) -> SerializationError {
        let lower: (any Error)? = SerializationError.chain(context.validationError, underlying: cause)
        return SerializationError(
            code: code,
            domain: .response,
            urlErrorCode: urlErrorCode,
            localizedDescription: description,
            failureReason: failureReason,
            failingURL: context.failingURL,
            response: context.response,
            data: context.data,
            underlying: lower
        )
    }

    /// The parser's explanation: the debug description of a `DecodingError`, or of the error under
    /// it when the decoder wrapped one (property-list decoding does).
    static func reason(for error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return String(describing: error) }
        let context: DecodingError.Context
        switch decodingError {
        case .typeMismatch(_, let errorContext), .valueNotFound(_, let errorContext),
            .keyNotFound(_, let errorContext), .dataCorrupted(let errorContext):
            context = errorContext
        @unknown default:
            return String(describing: error)
        }
        if let cocoaError = context.underlyingError as? CocoaError,
            let detail = cocoaError.userInfo["NSDebugDescription"] as? String
        {
            return detail
        }
        return context.debugDescription
    }

    /// The decoding path as `$.items[2].name`: `$` is the top level, `[n]` an array index.
    static func path(_ codingPath: [any CodingKey]) -> String {
        var text = "$"
        for key in codingPath {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                text += ".\(key.stringValue)"
            }
        }
        return text
    }
}
