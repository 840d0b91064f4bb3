/// Turns a host name into addresses for a host monitor.
///
/// `SystemHostResolver` asks the system's resolver (`getaddrinfo`) on a thread of its own. Inject
/// another to answer from a table in tests, or to use a resolver of your app's.
///
/// ```swift
/// struct FixedResolver: HostResolving {
///     func resolve(_ host: String) async throws -> [IPAddress] { [IPAddress("192.0.2.7")!] }
/// }
/// var configuration = NetlinkReachabilityMonitor.Configuration()
/// configuration.resolver = FixedResolver()
/// ```
///
/// - Important: `resolve` is awaited from the monitor's tasks on the cooperative pool, so it must
///   never block its thread: a blocking lookup belongs on a thread of its own, as
///   `SystemHostResolver` does.
public protocol HostResolving: Sendable {
    /// Resolves `host`.
    ///
    /// - Parameter host: The host name.
    /// - Returns: Its addresses, most preferred first; empty or a thrown error means unresolvable.
    /// - Throws: ``HostResolutionError`` or any error of the resolver's when the name does not resolve.
    func resolve(_ host: String) async throws -> [IPAddress]
}

/// A host name did not resolve.
public struct HostResolutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name that did not resolve.
    public var host: String
    /// The resolver's explanation, such as `gai_strerror`'s text.
    public var reason: String

    /// Creates the error.
    ///
    /// - Parameters:
    ///   - host: The name that did not resolve.
    ///   - reason: The resolver's explanation.
    public init(host: String, reason: String) {
        self.host = host
        self.reason = reason
    }

    /// `cannot resolve <host>: <reason>`.
    public var description: String { "cannot resolve \(host): \(reason)" }
}
