/// An HTTP status code with its class and its standard reason phrase.
///
/// The reason phrases come from the IANA HTTP Status Code Registry (RFC 9110 §15 and the RFCs it
/// lists); `CourierHTTP` keeps its own table because the platform's lives in FoundationNetworking.
///
/// ```swift
/// let status = HTTPStatus(code: 404)
/// status.reasonPhrase  // "Not Found"
/// status.kind          // .clientError
/// ```
public struct HTTPStatus: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The status class, from the first digit of the code.
    public enum Kind: Sendable, Hashable {
        /// 1xx
        case informational
        /// 2xx
        case successful
        /// 3xx
        case redirection
        /// 4xx
        case clientError
        /// 5xx
        case serverError
        /// Anything outside 100...599.
        case invalid
    }

    /// The three-digit code.
    public let code: Int

    /// Creates a status from its code.
    public init(code: Int) {
        self.code = code
    }

    /// The status class.
    public var kind: Kind {
        switch code {
        case 100...199: .informational
        case 200...299: .successful
        case 300...399: .redirection
        case 400...499: .clientError
        case 500...599: .serverError
        default: .invalid
        }
    }

    /// The registered reason phrase, or a generic one for the status class when the code is not
    /// registered (`"Client Error"` for 499, for example).
    public var reasonPhrase: String {
        if let phrase = Self.reasonPhrases[code] { return phrase }
        switch kind {
        case .informational: return "Informational"
        case .successful: return "Success"
        case .redirection: return "Redirection"
        case .clientError: return "Client Error"
        case .serverError: return "Server Error"
        case .invalid: return "Unknown Status"
        }
    }

    /// Orders statuses by code.
    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code < rhs.code }

    /// `"404 Not Found"`
    public var description: String { "\(code) \(reasonPhrase)" }

    /// 200 OK
    public static let ok = HTTPStatus(code: 200)
    /// 201 Created
    public static let created = HTTPStatus(code: 201)
    /// 204 No Content
    public static let noContent = HTTPStatus(code: 204)
    /// 205 Reset Content
    public static let resetContent = HTTPStatus(code: 205)
    /// 206 Partial Content
    public static let partialContent = HTTPStatus(code: 206)
    /// 304 Not Modified
    public static let notModified = HTTPStatus(code: 304)
    /// 400 Bad Request
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found
    public static let notFound = HTTPStatus(code: 404)
    /// 416 Range Not Satisfiable
    public static let rangeNotSatisfiable = HTTPStatus(code: 416)
    /// 500 Internal Server Error
    public static let internalServerError = HTTPStatus(code: 500)
    /// 503 Service Unavailable
    public static let serviceUnavailable = HTTPStatus(code: 503)

    // IANA HTTP Status Code Registry, as of 2022 (RFC 9110, 6585, 7538, 8297, 8470, 4918, 2295, 2774, 3229, 7725).
    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 102: "Processing", 103: "Early Hints",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content", 207: "Multi-Status", 208: "Already Reported",
        226: "IM Used",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        305: "Use Proxy", 307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required",
        412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        418: "I'm a teapot", 421: "Misdirected Request", 422: "Unprocessable Content", 423: "Locked",
        424: "Failed Dependency", 425: "Too Early", 426: "Upgrade Required", 428: "Precondition Required",
        429: "Too Many Requests", 431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 506: "Variant Also Negotiates",
        507: "Insufficient Storage", 508: "Loop Detected", 510: "Not Extended",
        511: "Network Authentication Required",
    ]
}
