public import CourierHTTP
public import FoundationEssentials

/// Validates a response and parses its body as JSON: `AFJSONResponseSerializer`.
///
/// AFNetworking's algorithm, step by step:
///
/// 1. Validate. A content-type failure (anywhere in the error chain) stops here: no value. A
///    status-only failure does not: the body is still parsed and the status error is reported with
///    the value, so a JSON error page on a 422 comes back parsed.
/// 2. An empty body, or a body that is exactly one space (what Rails' `head :ok` sends), is no value
///    and no parse error.
/// 3. Otherwise parse. A parse failure is a ``SerializationError/Code/invalidJSON`` error (code 3840,
///    Foundation's `The data couldn’t be read because it isn’t in the correct format.`, the parser's
///    explanation as the failure reason) with the validation error beneath it and the parser's error
///    at the bottom of the chain.
/// 4. A top-level value that is not an array or an object is rejected unless ``allowsFragments``
///    is set, with `NSJSONSerialization`'s reason `JSON text did not start with array or object and
///    option to allow fragments not set.`
/// 5. With ``removesKeysWithNullValues``, nulls are removed (see ``JSONValue/removingNullValues()``).
///
/// The parser is Courier's own (``JSONValue/init(parsing:)``), which accepts and rejects what
/// FoundationEssentials' `JSONDecoder` does and builds the same values, many times faster. Like
/// `JSONDecoder` it is slightly more lenient than `NSJSONSerialization`: it accepts a trailing
/// comma in arrays and objects and a leading byte-order mark. Nesting deeper than 512 arrays or
/// objects is an ``SerializationError/Code/invalidJSON`` error whose reason names the offset of the
/// bracket that crosses the limit.
///
/// ```swift
/// var serializer = JSONResponseSerializer()
/// serializer.removesKeysWithNullValues = true
/// let json = try serializer.serialize(response: response, data: body)
/// json?["user"]?["name"]?.stringValue
/// ```
public struct JSONResponseSerializer: ValidatingResponseSerializer {
    /// `application/json`, `text/json` and `text/javascript`, AFNetworking's acceptable types.
    public static let defaultAcceptableContentTypes: Set<String> = ["application/json", "text/json", "text/javascript"]

    /// The checks; 200...299 and ``defaultAcceptableContentTypes`` by default.
    public var validator: ResponseValidator
    /// Whether `null` members and elements are removed from the result; `false` by default.
    public var removesKeysWithNullValues: Bool
    /// Whether a top-level scalar such as `123` or `"text"` is accepted; `false` by default, as with
    /// AFNetworking's default reading options.
    public var allowsFragments: Bool

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = JSONResponseSerializer(removesKeysWithNullValues: true, allowsFragments: true)
    /// ```
    public init(
        removesKeysWithNullValues: Bool = false,
        allowsFragments: Bool = false,
        validator: ResponseValidator = ResponseValidator(
            acceptableContentTypes: JSONResponseSerializer.defaultAcceptableContentTypes
        )
    ) {
        self.removesKeysWithNullValues = removesKeysWithNullValues
        self.allowsFragments = allowsFragments
        self.validator = validator
    }

    /// The parsed JSON, the error, both (a status failure with a JSON body) or neither (an empty body).
    ///
    /// ```swift
    /// let outcome = JSONResponseSerializer().serializedResponse(response: response, data: body, request: request)
    /// ```
    public func serializedResponse(
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializedResponse<JSONValue> {
        let context: ResponseFailure.Context
        switch ResponseFailure.Context.validating(validator, response: response, data: data, request: request) {
        case .success(let validated): context = validated
        case .failure(let contentTypeError): return SerializedResponse(value: nil, error: contentTypeError)
        }
        guard let data, !data.isEmpty, data != Data([0x20]) else {
            return SerializedResponse(value: nil, error: context.validationError)
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            if let nesting = JSONValue.nestingFailure(in: error) {
                return SerializedResponse(value: nil, error: Self.invalidJSON(nesting.description, nil, context))
            }
            return SerializedResponse(
                value: nil,
                error: Self.invalidJSON(ResponseFailure.reason(for: error), error, context)
            )
        }
        switch value {
        case .array, .object:
            break
        default:
            guard allowsFragments else {
                let reason = "JSON text did not start with array or object and option to allow fragments not set."
                return SerializedResponse(value: nil, error: Self.invalidJSON(reason, nil, context))
            }
        }
        return SerializedResponse(
            value: removesKeysWithNullValues ? value.removingNullValues() : value,
            error: context.validationError
        )
    }

    private static func invalidJSON(
        _ reason: String,
        _ cause: (any Error)?,
        _ context: ResponseFailure.Context
    ) -> SerializationError {
        ResponseFailure.make(
            .invalidJSON,
            urlErrorCode: 3840,
            description: ResponseFailure.unreadableDataDescription,
            failureReason: reason,
            cause: cause,
            context: context
        )
    }
}
