public import CourierHTTP
public import FoundationEssentials

/// Validates a response and decodes its body into a `Decodable` type (Alamofire's
/// `DecodableResponseSerializer`, with AFNetworking's validation semantics).
///
/// - Validation works as in ``JSONResponseSerializer``: a content-type failure stops here; a status
///   failure does not, and is reported with the value, or beneath the decoding error.
/// - An empty (or missing) body is judged by ``emptyResponsePolicy``: where it is allowed (`204`,
///   `205`, `HEAD`) a type that is ``EmptyResponseRepresentable``, such as ``EmptyResponseBody``,
///   decodes to its empty value; any other type, or an empty body where none is allowed, is a
///   ``SerializationError/Code/emptyResponse`` error with Alamofire's text.
/// - A decoding failure is a ``SerializationError/Code/decodingFailed`` error whose description names
///   the type, what failed and the coding path (`$` is the top level), such as
///   `Response could not be decoded as Item: key not found at $.items[2].name`, with the
///   `DecodingError` at the bottom of the chain and Foundation's code for it (4864 for corrupt or
///   mismatched data, 4865 for a missing key or value). With a `JSONDecoder` or a
///   `PropertyListDecoder`, input nested deeper than 512 levels is refused as corrupt data before the
///   decoder runs, because their parsers can crash on it.
///
/// ```swift
/// struct Item: Decodable, Sendable { let id: Int; let name: String }
/// let serializer = DecodableResponseSerializer<[Item]>()
/// let items = try serializer.serialize(response: response, data: body, request: request)
/// ```
public struct DecodableResponseSerializer<Value: Decodable & Sendable>: ValidatingResponseSerializer {
    /// The decoder; a `JSONDecoder` by default.
    public var decoder: any ResponseDataDecoder
    /// The checks; 200...299 and ``JSONResponseSerializer/defaultAcceptableContentTypes`` by default.
    public var validator: ResponseValidator
    /// When an empty body is a legitimate answer.
    public var emptyResponsePolicy: EmptyResponsePolicy

    /// Creates a serializer.
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// let serializer = DecodableResponseSerializer(User.self, decoder: decoder)
    /// ```
    /// - Parameters:
    ///   - type: The type to decode, to spell the generic argument at the call site.
    ///   - decoder: The decoder.
    ///   - validator: The checks; pass your own content types with a non-JSON decoder.
    ///   - emptyResponsePolicy: When an empty body is allowed.
    public init(
        _ type: Value.Type = Value.self,
        decoder: any ResponseDataDecoder = JSONDecoder(),
        validator: ResponseValidator = ResponseValidator(
            acceptableContentTypes: JSONResponseSerializer.defaultAcceptableContentTypes
        ),
        emptyResponsePolicy: EmptyResponsePolicy = EmptyResponsePolicy()
    ) {
        self.decoder = decoder
        self.validator = validator
        self.emptyResponsePolicy = emptyResponsePolicy
    }

    /// The decoded value, the error, or both (a status failure whose body decoded).
    ///
    /// ```swift
    /// let outcome = DecodableResponseSerializer<User>().serializedResponse(response: response, data: body, request: request)
    /// ```
    public func serializedResponse(
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializedResponse<Value> {
        let context: ResponseFailure.Context
        switch ResponseFailure.Context.validating(validator, response: response, data: data, request: request) {
        case .success(let validated): context = validated
        case .failure(let contentTypeError): return SerializedResponse(value: nil, error: contentTypeError)
        }
        guard let data, !data.isEmpty else {
            return emptyBody(context)
        }
        let nestingViolation: String? =
            switch decoder {
            case is JSONDecoder: JSONNestingLimit.violation(in: data)
            case is PropertyListDecoder: PropertyListNestingLimit.violation(in: data)
            default: nil
            }
        if let nestingViolation {
            let error = ResponseFailure.make(
                .decodingFailed,
                urlErrorCode: 4864,
                description: "Response could not be decoded as \(Value.self): data corrupted at $",
                failureReason: nestingViolation,
                cause: nil,
                context: context
            )
            return SerializedResponse(value: nil, error: error)
        }
        do {
            return SerializedResponse(value: try decoder.decode(Value.self, from: data), error: context.validationError)
        } catch {
            return SerializedResponse(value: nil, error: decodingFailed(error, context))
        }
    }

    private func emptyBody(_ context: ResponseFailure.Context) -> SerializedResponse<Value> {
        guard emptyResponsePolicy.allowsEmptyBody(response: context.response, request: context.request) else {
            let error = ResponseFailure.make(
                .emptyResponse,
                urlErrorCode: 0,
                description: "Response could not be serialized, input data was nil or zero length.",
                failureReason: nil,
                cause: nil,
                context: context
            )
            return SerializedResponse(value: nil, error: error)
        }
        if let emptyType = Value.self as? any EmptyResponseRepresentable.Type,
            let empty = emptyType.emptyResponseValue as? Value
        {
            return SerializedResponse(value: empty, error: context.validationError)
        }
        let error = ResponseFailure.make(
            .emptyResponse,
            urlErrorCode: 0,
            description: "Empty response could not be serialized to type: \(Value.self). "
                + "Use EmptyResponseBody as the expected type for such responses.",
            failureReason: nil,
            cause: nil,
            context: context
        )
        return SerializedResponse(value: nil, error: error)
    }

    private func decodingFailed(_ error: any Error, _ context: ResponseFailure.Context) -> SerializationError {
        var what = "the decoder failed"
        var codingPath: [any CodingKey] = []
        var urlErrorCode = 4864
        if let decodingError = error as? DecodingError {
            switch decodingError {
            case .typeMismatch(let type, let errorContext):
                (what, codingPath) = ("expected \(type) but found another type", errorContext.codingPath)
            case .valueNotFound(let type, let errorContext):
                (what, codingPath, urlErrorCode) = ("expected \(type) but found null", errorContext.codingPath, 4865)
            case .keyNotFound(let key, let errorContext):
                (what, codingPath, urlErrorCode) = ("key not found", errorContext.codingPath + [key], 4865)
            case .dataCorrupted(let errorContext):
                (what, codingPath) = ("data corrupted", errorContext.codingPath)
            @unknown default:
                break
            }
        }
        return ResponseFailure.make(
            .decodingFailed,
            urlErrorCode: urlErrorCode,
            description:
                "Response could not be decoded as \(Value.self): \(what) at \(ResponseFailure.path(codingPath))",
            failureReason: ResponseFailure.reason(for: error),
            cause: error,
            context: context
        )
    }
}
