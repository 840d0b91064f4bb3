public import CourierReachability
internal import Dispatch
internal import Glibc

/// Resolves names with the system resolver (`getaddrinfo`: `/etc/hosts`, then DNS as
/// `/etc/nsswitch.conf` and `/etc/resolv.conf` say), off the cooperative pool.
///
/// `getaddrinfo` blocks for as long as DNS takes, so each lookup runs on a private dispatch queue and
/// resumes the awaiting task when it returns; no thread of the cooperative pool ever waits for it.
///
/// ```swift
/// let addresses = try await SystemHostResolver().resolve("localhost")  // [127.0.0.1, ::1]
/// ```
public struct SystemHostResolver: HostResolving {
    private static let queue = DispatchQueue(label: "courier.reachability.resolver", attributes: .concurrent)

    /// Creates a resolver.
    public init() {}

    /// Resolves `host` with `getaddrinfo` on a dispatch queue.
    ///
    /// - Parameter host: The host name.
    /// - Returns: Its addresses in `getaddrinfo`'s order (RFC 6724), without duplicates.
    /// - Throws: `HostResolutionError` with `gai_strerror`'s text.
    public func resolve(_ host: String) async throws -> [IPAddress] {
        try await withCheckedThrowingContinuation { continuation in
            Self.queue.async { continuation.resume(with: Self.lookUp(host)) }
        }
    }

    private static func lookUp(_ host: String) -> Result<[IPAddress], any Error> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        defer { if let list { freeaddrinfo(list) } }
        guard status == 0 else {
            let reason = gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            return .failure(HostResolutionError(host: host, reason: reason))
        }
        var addresses: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let address = Self.address(of: current.pointee), !addresses.contains(address) {
                addresses.append(address)
            }
            entry = current.pointee.ai_next
        }
        return .success(addresses)
    }

    private static func address(of entry: addrinfo) -> IPAddress? {
        guard let socketAddress = entry.ai_addr else { return nil }
        switch entry.ai_family {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { IPAddress(bytes: Array($0)) }
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { IPAddress(bytes: Array($0)) }
            }
        default:
            return nil
        }
    }
}
