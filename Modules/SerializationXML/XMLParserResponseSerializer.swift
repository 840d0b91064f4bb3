public import CourierHTTP
public import CourierSerialization
public import FoundationEssentials

/// Validates a response and hands back its body for an `XMLParser`: `AFXMLParserResponseSerializer`.
///
/// As in AFNetworking, nothing is parsed here, so malformed XML is not an error at this stage; the
/// value is an ``XMLParserSource`` whose `makeParser()` gives a fresh, unstarted parser (a parser
/// itself is not `Sendable`; see ``XMLParserSource``). Validation is AFNetworking's: acceptable
/// types `application/xml` and `text/xml`, status 200...299; a content-type failure stops with no
/// value, a status failure is reported next to the value. A missing body is no value; an empty one
/// is a source over no bytes, as AFNetworking returns a parser over empty data.
///
/// ```swift
/// let serializer = XMLParserResponseSerializer()
/// let outcome = serializer.serializedResponse(response: response, data: body, request: request)
/// if let parser = outcome.value?.makeParser() {
///     parser.delegate = feedDelegate
///     parser.parse()
/// }
/// ```
public struct XMLParserResponseSerializer: ValidatingResponseSerializer {
    /// `application/xml` and `text/xml`, AFNetworking's acceptable types for both XML serializers.
    public static let defaultAcceptableContentTypes: Set<String> = ["application/xml", "text/xml"]

    /// The checks; 200...299 and ``defaultAcceptableContentTypes`` by default.
    public var validator: ResponseValidator

    /// Creates a serializer.
    ///
    /// ```swift
    /// var serializer = XMLParserResponseSerializer()
    /// serializer.acceptableContentTypes?.insert("application/atom+xml")
    /// ```
    public init(
        validator: ResponseValidator = ResponseValidator(
            acceptableContentTypes: XMLParserResponseSerializer.defaultAcceptableContentTypes
        )
    ) {
        self.validator = validator
    }

    /// The body to parse, with the status error alongside when there is one.
    ///
    /// ```swift
    /// let source = try XMLParserResponseSerializer().serialize(response: response, data: body)
    /// ```
    public func serializedResponse(
        response: HTTPResponse?,
        data: Data?,
        request: HTTPRequest?
    ) -> SerializedResponse<XMLParserSource> {
        switch XMLResponseValidation.validate(validator, response: response, data: data, request: request) {
        case .failure(let contentTypeError):
            return SerializedResponse(value: nil, error: contentTypeError)
        case .success(let statusError):
            return SerializedResponse(value: data.map(XMLParserSource.init(data:)), error: statusError)
        }
    }
}
