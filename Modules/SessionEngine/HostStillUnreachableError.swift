/// ``OfflineAwareRetrier``'s reason to stop: the host's path did not come back in time.
///
/// The task ends with `SessionError.Kind.retryFailed`, and this error is its `underlying` error:
///
/// ```swift
/// if let offline = response.error?.underlying as? HostStillUnreachableError {
///     showOfflineBanner(for: offline.host)
/// }
/// ```
public struct HostStillUnreachableError: Error, Sendable, CustomStringConvertible {
    /// The host that was not reachable.
    public let host: String
    /// How long the retrier waited for it.
    public let waited: Duration

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - host: The host that was not reachable.
    ///   - waited: How long the retrier waited.
    public init(host: String, waited: Duration) {
        self.host = host
        self.waited = waited
    }

    /// `"api.example.com was not reachable, and did not come back within 30.0 seconds"`.
    public var description: String {
        "\(host) was not reachable, and did not come back within \(waited)"
    }
}
