/// What a reachability monitor watches: AFNetworking's three kinds of manager.
///
/// ```swift
/// let internet = NetlinkReachabilityMonitor(target: .defaultRoute)         // AF's manager
/// let api = NetlinkReachabilityMonitor(target: .host("api.example.com"))   // managerForDomain:
/// let gateway = NetlinkReachabilityMonitor(target: .address(IPAddress("192.168.1.1")!))  // managerForAddress:
/// ```
public enum ReachabilityTarget: Sendable, Hashable, CustomStringConvertible {
    /// The default route, IPv4 or IPv6: "is this machine on a network that leads elsewhere"
    /// (AFNetworking's `manager`, which watches the zero address).
    case defaultRoute
    /// A host name, resolved through the monitor's resolver and resolved again whenever the network
    /// changes (AFNetworking's `managerForDomain:`).
    case host(String)
    /// One address (AFNetworking's `managerForAddress:`).
    case address(IPAddress)

    /// `default route`, the host name, or the address.
    public var description: String {
        switch self {
        case .defaultRoute: "default route"
        case .host(let name): name
        case .address(let address): address.description
        }
    }
}
