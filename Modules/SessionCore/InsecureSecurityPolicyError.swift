public import CourierSecurity
public import FoundationEssentials

/// A pinning security policy was given to a manager whose base URL is not `https`.
///
/// AFNetworking raises an `Invalid Security Policy` exception when a policy that pins
/// (certificate or public key) is set on a manager whose base URL scheme is not exactly `https`,
/// `nil` included; pinning over plain HTTP would pin nothing. Here the same check throws this
/// error, with AFNetworking's reason text. A policy that does not pin is accepted on `http`.
///
/// ```swift
/// do {
///     _ = try HTTPSessionManager(baseURL: URL(string: "http://api.test"), securityPolicy: pinning) { _ in transport }
/// } catch {
///     print(error.reason)  // "A security policy configured with `AFSSLPinningModeCertificate` can only be …"
/// }
/// ```
public struct InsecureSecurityPolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// AFNetworking's exception name.
    public static let name = "Invalid Security Policy"

    /// The policy's pinning mode.
    public let pinningMode: PinningMode
    /// The base URL the policy was refused for; `nil` when the manager had none.
    public let baseURL: URL?

    /// Creates the error for a policy of `pinningMode` on `baseURL`.
    ///
    /// ```swift
    /// let error = InsecureSecurityPolicyError(pinningMode: .publicKey, baseURL: nil)
    /// ```
    /// - Parameters:
    ///   - pinningMode: The refused policy's pinning mode.
    ///   - baseURL: The manager's base URL.
    public init(pinningMode: PinningMode, baseURL: URL?) {
        self.pinningMode = pinningMode
        self.baseURL = baseURL
    }

    /// AFNetworking's reason text, with its name of the pinning mode.
    public var reason: String {
        let mode =
            switch pinningMode {
            case .none: "AFSSLPinningModeNone"
            case .publicKey: "AFSSLPinningModePublicKey"
            case .certificate: "AFSSLPinningModeCertificate"
            }
        return
            "A security policy configured with `\(mode)` can only be applied on a manager with a secure base URL (i.e. https)"
    }

    /// The exception name and the reason.
    public var description: String { "\(Self.name): \(reason)" }

    /// Throws when `policy` pins and `baseURL` is not `https`. Unlike AFNetworking, which compares
    /// the scheme exactly, `HTTPS` passes too: schemes are case-insensitive (RFC 3986 §3.1).
    ///
    /// ```swift
    /// try InsecureSecurityPolicyError.check(policy, baseURL: URL(string: "https://api.test"))  // passes
    /// ```
    /// - Parameters:
    ///   - policy: The policy to apply.
    ///   - baseURL: The manager's base URL.
    /// - Throws: ``InsecureSecurityPolicyError`` when the policy pins over anything but `https`.
    public static func check(_ policy: SecurityPolicy, baseURL: URL?) throws(InsecureSecurityPolicyError) {
        guard policy.pinningMode != .none, baseURL?.scheme?.lowercased() != "https" else { return }
        throw InsecureSecurityPolicyError(pinningMode: policy.pinningMode, baseURL: baseURL)
    }
}
