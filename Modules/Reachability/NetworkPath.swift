/// The path to a monitored destination: AFNetworking's status, plus the route behind it.
///
/// ```swift
/// for await path in monitor.paths() {
///     print(path.status, path.interface?.name ?? "-", path.gateway?.description ?? "on-link")
/// }
/// ```
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
    /// AFNetworking's status for the destination.
    public var status: ReachabilityStatus
    /// The interface the kernel would send through; `nil` when there is no usable route.
    public var interface: NetworkInterface?
    /// Whether that interface is a VPN tunnel (tun or WireGuard).
    public var isVirtualPrivateNetwork: Bool
    /// Whether an IPv4 destination (or, for the default route, IPv4 in general) is reachable.
    public var supportsIPv4: Bool
    /// Whether an IPv6 destination (or, for the default route, IPv6 in general) is reachable.
    public var supportsIPv6: Bool
    /// The next hop of the chosen route; `nil` when the destination is on-link or unreachable.
    public var gateway: IPAddress?

    /// Creates a path.
    ///
    /// - Parameters:
    ///   - status: AFNetworking's status.
    ///   - interface: The egress interface, if any.
    ///   - isVirtualPrivateNetwork: Whether the interface is a VPN tunnel.
    ///   - supportsIPv4: Whether IPv4 is usable towards the destination.
    ///   - supportsIPv6: Whether IPv6 is usable towards the destination.
    ///   - gateway: The next hop, if the route has one.
    public init(
        status: ReachabilityStatus,
        interface: NetworkInterface? = nil,
        isVirtualPrivateNetwork: Bool = false,
        supportsIPv4: Bool = false,
        supportsIPv6: Bool = false,
        gateway: IPAddress? = nil
    ) {
        self.status = status
        self.interface = interface
        self.isVirtualPrivateNetwork = isVirtualPrivateNetwork
        self.supportsIPv4 = supportsIPv4
        self.supportsIPv6 = supportsIPv6
        self.gateway = gateway
    }

    /// The path before any evaluation: status ``ReachabilityStatus/unknown``, no interface.
    public static let unknown = NetworkPath(status: .unknown)

    /// The path when nothing leads to the destination: ``ReachabilityStatus/notReachable``.
    public static let unreachable = NetworkPath(status: .notReachable)

    /// One line: the status, then the interface, VPN flag, families and gateway when there is a route.
    public var description: String {
        guard let interface else { return status.description }
        var families: [String] = []
        if supportsIPv4 { families.append("IPv4") }
        if supportsIPv6 { families.append("IPv6") }
        var text = "\(status) via \(interface)"
        if isVirtualPrivateNetwork { text += " VPN" }
        if !families.isEmpty { text += " " + families.joined(separator: "+") }
        if let gateway { text += " gateway \(gateway)" }
        return text
    }
}
