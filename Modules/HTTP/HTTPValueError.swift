/// An error raised when a value given to a `CourierHTTP` type breaks HTTP's grammar.
///
/// Header names must be tokens (RFC 9110 §5.1), header values may not contain CR, LF or NUL
/// (RFC 9110 §5.5), and method names must be tokens (RFC 9110 §9.1). A body file must exist and be
/// readable. Each violation is reported with the offending value so that the caller can act on it.
///
/// ```swift
/// do {
///     try headers.add(name: "X-Bad\r\nInjected", value: "1")
/// } catch let error as HTTPValueError where error.code == .invalidHeaderName {
///     print(error)  // invalid header name "X-Bad\r\nInjected": ...
/// }
/// ```
public struct HTTPValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule was broken.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// A header name that is empty or not an RFC 9110 token.
        public static let invalidHeaderName = Code("invalidHeaderName")
        /// A header value that contains CR, LF or NUL.
        public static let invalidHeaderValue = Code("invalidHeaderValue")
        /// A method name that is empty or not an RFC 9110 token.
        public static let invalidMethod = Code("invalidMethod")
        /// A body file that cannot be opened or read.
        public static let unreadableFile = Code("unreadableFile")
        /// A body range that lies outside its file, or a negative length.
        public static let invalidRange = Code("invalidRange")

        /// A one-shot body (an async producer) that was already read: it cannot be sent again.
        public static let bodyAlreadyConsumed = Code("bodyAlreadyConsumed")

        /// The code's name, for logs.
        public var description: String { name }
    }

    /// What kind of rule was broken.
    public let code: Code
    /// The offending value, as given.
    public let value: String
    /// A sentence that says what is wrong.
    public let reason: String

    /// Creates an error; used by the `CourierHTTP` types and by transports that read bodies.
    ///
    /// - Parameters:
    ///   - code: What kind of rule was broken.
    ///   - value: The offending value, as given.
    ///   - reason: A sentence that says what is wrong.
    public init(code: Code, value: String, reason: String) {
        self.code = code
        self.value = value
        self.reason = reason
    }

    /// A description that quotes the offending value with control characters escaped.
    public var description: String {
        "\(code) \(value.debugDescription): \(reason)"
    }
}
