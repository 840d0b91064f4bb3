internal import Glibc

/// An IPv4 or IPv6 address, as a destination to watch or a gateway on a path.
///
/// ```swift
/// let address = IPAddress("192.0.2.10")
/// print(address?.family, address)  // Optional(CourierReachability.IPAddress.Family.ipv4) Optional(192.0.2.10)
/// ```
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family.
    public enum Family: Sendable, Hashable {
        /// IPv4: four bytes.
        case ipv4
        /// IPv6: sixteen bytes.
        case ipv6
    }

    /// The address bytes in network order: four for IPv4, sixteen for IPv6.
    public let bytes: [UInt8]

    /// The address family, from the number of bytes.
    public var family: Family { bytes.count == 4 ? .ipv4 : .ipv6 }

    /// Creates an address from its bytes in network order; `nil` unless there are 4 or 16.
    ///
    /// - Parameter bytes: Four bytes for IPv4, sixteen for IPv6.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses an address in its textual form (`192.0.2.1`, `2001:db8::1`); `nil` if it is neither.
    ///
    /// - Parameter text: An IPv4 dotted quad or an IPv6 address, without brackets or zone.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    /// The textual form, as `inet_ntop` writes it.
    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = self.family == .ipv4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { source in
            inet_ntop(family, source.baseAddress, &text, socklen_t(text.count))
        }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
