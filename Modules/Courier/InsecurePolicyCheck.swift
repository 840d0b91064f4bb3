public import CourierSecurity
public import FoundationEssentials

extension CourierClient {
    /// A pinning `SecurityPolicy` given with a base URL that is not `https`: AFNetworking's
    /// "Invalid Security Policy" exception, as a typed error with AFNetworking's reason text.
    ///
    /// Pinning over plain HTTP protects nothing, so AFNetworking refuses it where the policy and the
    /// base URL meet (`-[AFHTTPSessionManager setSecurityPolicy:]`), and so does the root. As in
    /// AFNetworking, a missing base URL counts as not `https`; `PinningMode.none` is accepted on
    /// any base URL.
    ///
    /// ```swift
    /// do {
    ///     _ = try CourierClient(baseURL: URL(string: "http://api.example.com")) { $0.securityPolicy = pinned }
    /// } catch {
    ///     print(error.reason)  // A security policy configured with `AFSSLPinningModeCertificate` can only…
    /// }
    /// ```
    public struct InsecurePolicyError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The policy's pinning mode: `PinningMode.publicKey` or `PinningMode.certificate`.
        public let pinningMode: PinningMode
        /// The base URL the policy was refused for; `nil` when there was none.
        public let baseURL: URL?

        /// AFNetworking's reason, word for word, with the mode's Objective-C name.
        public var reason: String {
            "A security policy configured with `\(pinningMode.afNetworkingName)` can only be applied on a manager"
                + " with a secure base URL (i.e. https)"
        }

        /// The same as ``reason``.
        public var description: String { reason }
    }
}

/// Refuses a pinning policy on a base URL that is not `https`, as AFNetworking does.
///
/// The session layer is to take this guard over (an initializer with the base URL, the policy and a
/// transport factory); until then the root asks here, before it makes a transport.
func refuseInsecurePinning(
    _ policy: SecurityPolicy?,
    baseURL: URL?
) throws(CourierClient.InsecurePolicyError) {
    guard let policy, policy.pinningMode != .none else { return }
    // URL schemes are case-insensitive (RFC 3986 §3.1); AFNetworking compares the parsed scheme.
    guard baseURL?.scheme?.lowercased() != "https" else { return }
    throw CourierClient.InsecurePolicyError(pinningMode: policy.pinningMode, baseURL: baseURL)
}

extension PinningMode {
    /// `AFSSLPinningModeNone`, `AFSSLPinningModePublicKey` or `AFSSLPinningModeCertificate`.
    fileprivate var afNetworkingName: String {
        switch self {
        case .none: "AFSSLPinningModeNone"
        case .publicKey: "AFSSLPinningModePublicKey"
        case .certificate: "AFSSLPinningModeCertificate"
        }
    }
}
