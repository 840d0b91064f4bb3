/// An HTTP request method, such as `GET` or a custom extension method.
///
/// Method names are case-sensitive (RFC 9110 §9.1) and must be tokens; ``init(rawValue:)`` returns `nil`
/// for anything else, so an invalid method can never reach the wire.
///
/// ```swift
/// let method: HTTPMethod = .post
/// let purge = HTTPMethod(rawValue: "PURGE")  // an extension method
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method name as sent on the request line.
    public let rawValue: String

    /// Creates a method, or returns `nil` when `rawValue` is not an RFC 9110 token.
    ///
    /// - Parameter rawValue: The method name, for example `"PATCH"`.
    public init?(rawValue: String) {
        guard HTTPToken.isToken(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// Creates a method, throwing a typed error when `name` is not an RFC 9110 token.
    ///
    /// ```swift
    /// let method = try HTTPMethod(validating: userInput)
    /// ```
    /// - Throws: ``HTTPValueError`` with code ``HTTPValueError/Code/invalidMethod``.
    public init(validating name: String) throws(HTTPValueError) {
        guard let method = HTTPMethod(rawValue: name) else {
            throw HTTPValueError(code: .invalidMethod, value: name, reason: "a method name must be a non-empty token")
        }
        self = method
    }

    private init(known: String) { rawValue = known }

    /// `GET`
    public static let get = HTTPMethod(known: "GET")
    /// `HEAD`
    public static let head = HTTPMethod(known: "HEAD")
    /// `POST`
    public static let post = HTTPMethod(known: "POST")
    /// `PUT`
    public static let put = HTTPMethod(known: "PUT")
    /// `PATCH`
    public static let patch = HTTPMethod(known: "PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod(known: "DELETE")
    /// `OPTIONS`
    public static let options = HTTPMethod(known: "OPTIONS")
    /// `TRACE`
    public static let trace = HTTPMethod(known: "TRACE")
    /// `CONNECT`
    public static let connect = HTTPMethod(known: "CONNECT")

    /// Whether the method is idempotent (RFC 9110 §9.2.2): `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`
    /// and `TRACE`. Retry policies resend only these unless told otherwise.
    ///
    /// ```swift
    /// HTTPMethod.put.isIdempotent   // true
    /// HTTPMethod.post.isIdempotent  // false
    /// ```
    public var isIdempotent: Bool {
        switch rawValue {
        case "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE": true
        default: false
        }
    }

    /// The method name.
    public var description: String { rawValue }
}
