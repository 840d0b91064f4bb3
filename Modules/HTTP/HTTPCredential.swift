/// A user name and password for HTTP authentication (RFC 9110 §11), answered by the transport.
///
/// The transport answers the server's challenge itself, the way AFNetworking leaves non-trust
/// challenges to the platform: with ``Scheme/basic`` only, the credential is sent with the first
/// request; with ``Scheme/digest`` (or both), the first request goes without it, the `401`
/// challenge is answered, and only the final response is reported. The challenge round sends the
/// request twice, so a one-shot body (an async producer) may fail with
/// `TransportError.Category.requestBodyAlreadyConsumed` when the server reads it before
/// challenging; give such requests a replayable body.
///
/// A credential belongs to the request's origin: the session layer drops it when a redirect leaves
/// that origin, and a transport never sends it anywhere else. Its description never shows the
/// password.
///
/// ```swift
/// var request = HTTPRequest(url: URL(string: "https://api.example.com/report")!)
/// request.credential = HTTPCredential(user: "ada", password: "s3cret", schemes: [.digest])
/// ```
public struct HTTPCredential: Sendable, Hashable, CustomStringConvertible {
    /// An HTTP authentication scheme the transport may answer with.
    public struct Scheme: OptionSet, Sendable, Hashable {
        /// The scheme's bit.
        public let rawValue: Int

        /// Creates a scheme set from its bits.
        ///
        /// - Parameter rawValue: The bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// `Basic` (RFC 7617): the password in every request, readable by anyone on the path
        /// unless the connection is TLS.
        public static let basic = Scheme(rawValue: 1 << 0)
        /// `Digest` (RFC 7616): a hash of the password over the server's nonce.
        public static let digest = Scheme(rawValue: 1 << 1)
    }

    /// The user name.
    public var user: String
    /// The password.
    public var password: String
    /// The schemes the transport may answer with.
    public var schemes: Scheme

    /// Creates a credential.
    ///
    /// ```swift
    /// let credential = HTTPCredential(user: "ada", password: "s3cret")  // Basic, sent at once
    /// ```
    /// - Parameters:
    ///   - user: The user name.
    ///   - password: The password.
    ///   - schemes: The schemes to answer with; Basic by default.
    public init(user: String, password: String, schemes: Scheme = .basic) {
        self.user = user
        self.password = password
        self.schemes = schemes
    }

    /// `"ada (basic, digest)"`: the user and schemes, never the password.
    public var description: String {
        var names: [String] = []
        if schemes.contains(.basic) { names.append("basic") }
        if schemes.contains(.digest) { names.append("digest") }
        return "\(user) (\(names.joined(separator: ", ")))"
    }
}
