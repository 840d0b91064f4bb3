public import CourierHTTP
public import FoundationEssentials

/// An error from a request or response serializer, with AFNetworking's codes and texts.
///
/// AFNetworking reports serialization failures as `NSError`s in two domains with URL-loading codes
/// (-1011 for an unacceptable status, -1016 for undecodable content, -1000 for a bad file URL).
/// ``urlErrorCode``, ``domain``, ``localizedDescription`` and ``failureReason`` carry those exact
/// values; ``code`` says precisely what happened; and the failing URL, response, data and underlying
/// error come along so that the caller can act.
///
/// Errors chain as AFNetworking's do: when a response fails both the status and the content-type
/// check, the status error is the outer one and the content-type error is its ``underlying`` error.
///
/// ```swift
/// do {
///     let value = try serializer.serialize(response: response, data: data)
/// } catch let error as SerializationError where error.contains(.unacceptableStatusCode) {
///     print(error.localizedDescription)  // "Request failed: not found (404)"
///     print(error.response?.status.code ?? 0)
/// }
/// ```
public struct SerializationError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        // Request serialization

        /// JSON request parameters that are not a valid JSON object (AF: -1016).
        public static let invalidJSONParameters = Code("invalidJSONParameters")
        /// Property-list request parameters that cannot be encoded.
        public static let invalidPropertyListParameters = Code("invalidPropertyListParameters")
        /// A multipart file part whose URL is not a file URL (AF: -1000).
        public static let notAFileURL = Code("notAFileURL")
        /// A multipart file part whose file is missing or unreadable (AF: -1000).
        public static let fileNotReachable = Code("fileNotReachable")
        /// A multipart stream part or form that cannot be written or read.
        public static let multipartStreamFailed = Code("multipartStreamFailed")
        /// A custom query serialization closure failed; the closure's error is ``underlying``.
        public static let customQuerySerializationFailed = Code("customQuerySerializationFailed")
        /// An Encodable value could not be form-encoded (a top-level value that is not keyed, say).
        public static let formEncodingFailed = Code("formEncodingFailed")
        /// A header value, method or URL that the request cannot carry.
        public static let invalidRequest = Code("invalidRequest")

        // Response serialization

        /// The status code is not acceptable (AF: -1011).
        public static let unacceptableStatusCode = Code("unacceptableStatusCode")
        /// The MIME type is not acceptable (AF: -1016).
        public static let unacceptableContentType = Code("unacceptableContentType")
        /// The body is not valid JSON.
        public static let invalidJSON = Code("invalidJSON")
        /// The body is not a valid property list.
        public static let invalidPropertyList = Code("invalidPropertyList")
        /// The body is not well-formed XML (the XML response serializers of `CourierSerializationXML`).
        public static let invalidXML = Code("invalidXML")
        /// The body could not be decoded into the requested `Decodable` type.
        public static let decodingFailed = Code("decodingFailed")
        /// The charset named by `Content-Type` is not one that Courier decodes.
        public static let unsupportedCharset = Code("unsupportedCharset")
        /// The body is not valid in its charset.
        public static let invalidStringEncoding = Code("invalidStringEncoding")
        /// The body is empty where a value was required.
        public static let emptyResponse = Code("emptyResponse")

        /// The code's name, for logs.
        public var description: String { name }
    }

    /// AFNetworking's error domains.
    public enum Domain: String, Sendable, Hashable {
        /// `com.alamofire.error.serialization.request`
        case request = "com.alamofire.error.serialization.request"
        /// `com.alamofire.error.serialization.response`
        case response = "com.alamofire.error.serialization.response"
    }

    /// What went wrong.
    public let code: Code
    /// Which side failed, with AFNetworking's domain string as its raw value.
    public let domain: Domain
    /// AFNetworking's URL-loading error code: -1011, -1016 or -1000; 3840 for unparsable JSON or
    /// property lists (Foundation's code); 4864 or 4865 for a `Decodable` failure (the codes a
    /// `DecodingError` bridges to on Apple platforms); 0 where AFNetworking defines none.
    public let urlErrorCode: Int
    /// AFNetworking's description, such as `Request failed: unacceptable content-type: text/html`.
    public let localizedDescription: String
    /// AFNetworking's failure reason, where it gives one.
    public let failureReason: String?
    /// The URL of the request or response that failed.
    public let failingURL: URL?
    /// The response, for response errors.
    public let response: HTTPResponse?
    /// The body, for response errors, when not empty.
    public let data: Data?
    /// The error underneath: the content-type error under a status error, a parser's error under a
    /// parse failure, the validation error under a parse failure.
    public let underlying: (any Error)?

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - domain: Which side failed.
    ///   - urlErrorCode: AFNetworking's numeric code.
    ///   - localizedDescription: A sentence for people.
    ///   - failureReason: Why, where known.
    ///   - failingURL: The URL involved.
    ///   - response: The response, for response errors.
    ///   - data: The body, for response errors.
    ///   - underlying: The error underneath.
    public init(
        code: Code,
        domain: Domain,
        urlErrorCode: Int,
        localizedDescription: String,
        failureReason: String? = nil,
        failingURL: URL? = nil,
        response: HTTPResponse? = nil,
        data: Data? = nil,
        underlying: (any Error)? = nil
    ) {
        self.code = code
        self.domain = domain
        self.urlErrorCode = urlErrorCode
        self.localizedDescription = localizedDescription
        self.failureReason = failureReason
        self.failingURL = failingURL
        self.response = response
        self.data = data.flatMap { $0.isEmpty ? nil : $0 }
        self.underlying = underlying
    }

    /// Whether this error or any error in its ``underlying`` chain has `code`.
    ///
    /// AFNetworking's JSON serializer, for instance, stops parsing only when the chain holds a
    /// content-type error.
    public func contains(_ code: Code) -> Bool {
        var current: (any Error)? = self
        while let error = current as? SerializationError {
            if error.code == code { return true }
            current = error.underlying
        }
        return false
    }

    /// AFNetworking's error chaining: `primary` with `underlying` attached, unless `primary` already
    /// has an underlying error; `underlying` alone when there is no primary.
    public static func chain(_ primary: SerializationError?, underlying: (any Error)?) -> (any Error)? {
        guard let primary else { return underlying }
        guard let underlying, primary.underlying == nil else { return primary }
        return primary.attaching(underlying)
    }

    /// A copy with `underlying` attached.
    public func attaching(_ underlying: any Error) -> SerializationError {
        SerializationError(
            code: code,
            domain: domain,
            urlErrorCode: urlErrorCode,
            localizedDescription: localizedDescription,
            failureReason: failureReason,
            failingURL: failingURL,
            response: response,
            data: data,
            underlying: underlying
        )
    }

    /// The description, the failure reason and the chain of underlying errors.
    public var description: String {
        var text = "\(code): \(localizedDescription)"
        if let failureReason { text += " (\(failureReason))" }
        if let failingURL { text += " [\(failingURL.absoluteString)]" }
        if let underlying { text += " <- \(underlying)" }
        return text
    }
}
