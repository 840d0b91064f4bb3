public import CourierHTTP
public import CourierSerialization
public import FoundationEssentials

/// Validates a response and parses its body into an ``XMLTree``: `AFXMLDocumentResponseSerializer`.
///
/// AFNetworking returns an `NSXMLDocument`, on macOS only; FoundationXML's `XMLDocument` is not
/// `Sendable`, so Courier returns a value tree (see ``XMLTree`` for why and for the parsing limits).
///
/// AFNetworking's algorithm, with one difference:
///
/// 1. Validate: acceptable types `application/xml` and `text/xml`, status 200...299. A content-type
///    failure stops here; a status failure does not, and is reported next to the parsed tree.
/// 2. An empty or missing body is no value and no parse error (the difference: AFNetworking's
///    `NSXMLDocument` fails on empty data, but Courier treats a body-less `204`, or a download whose
///    bytes went to a file, as the JSON serializer does).
/// 3. Otherwise parse. Malformed XML is a `SerializationError` with code `invalidXML`, the parser's
///    error code as its `urlErrorCode`, the line and column in its description, the status error
///    (if any) beneath it and the ``XMLParseError`` at the bottom of the chain.
///
/// ```swift
/// let serializer = XMLDocumentResponseSerializer()
/// let tree = try serializer.serialize(response: response, data: body)
/// let titles = tree?.root.elements(named: "item").compactMap { $0.firstElement(named: "title")?.text }
/// ```
public struct XMLDocumentResponseSerializer: ValidatingResponseSerializer {
    /// The checks; 200...299 and `application/xml`, `text/xml` by default.
    public var validator: ResponseValidator
    /// Whether whitespace-only text between elements is kept; `false` by default.
    public var preservesWhitespace: Bool

    /// Creates a serializer.
    ///
    /// ```swift
    /// let serializer = XMLDocumentResponseSerializer(preservesWhitespace: true)
    /// ```
    public init(
        preservesWhitespace: Bool = false,
        validator: ResponseValidator = ResponseValidator(
            acceptableContentTypes: XMLParserResponseSerializer.defaultAcceptableContentTypes
        )
    ) {
        self.preservesWhitespace = preservesWhitespace
        self.validator = validator
    }

    /// The parsed tree, the error, both (a status failure with an XML body) or neither (no body).
    ///
    /// ```swift
    /// let outcome = XMLDocumentResponseSerializer().serializedResponse(response: response, data: body, request: nil)
    /// ```
    public func serializedResponse(
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializedResponse<XMLTree> {
        let statusError: SerializationError?
        switch XMLResponseValidation.validate(validator, response: response, data: data, request: request) {
        case .failure(let contentTypeError): return SerializedResponse(value: nil, error: contentTypeError)
        case .success(let error): statusError = error
        }
        guard let data, !data.isEmpty else { return SerializedResponse(value: nil, error: statusError) }
        do {
            return SerializedResponse(
                value: try XMLTree(data: data, preservingWhitespace: preservesWhitespace),
                error: statusError
            )
        } catch {
            let failure = XMLResponseValidation.invalidXML(
                error,
                validationError: statusError,
                response: response,
                data: data,
                request: request
            )
            return SerializedResponse(value: nil, error: failure)
        }
    }
}
