/// Whether a destination can be reached, and over which kind of path: AFNetworking's
/// `AFNetworkReachabilityStatus`, with its raw values and display strings.
///
/// On Linux, a wired, Wi-Fi, virtual or loopback path is AFNetworking's "WiFi" (which means "not
/// WWAN"), and a cellular one its "WWAN"; ``NetworkPath`` carries the richer ``InterfaceKind``.
///
/// ```swift
/// let monitor = NetlinkReachabilityMonitor(target: .defaultRoute)
/// monitor.setReachabilityStatusChangeHandler { status in
///     print(status)  // "Reachable via WiFi"
/// }
/// monitor.startMonitoring()
/// ```
public enum ReachabilityStatus: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not evaluated yet: the status before monitoring has delivered its first evaluation.
    case unknown = -1
    /// No usable route to the destination (or its name did not resolve).
    case notReachable = 0
    /// Reachable over a cellular interface.
    case reachableViaWWAN = 1
    /// Reachable over any other interface: wired, Wi-Fi, virtual or loopback.
    case reachableViaWiFi = 2

    /// AFNetworking's display string (`AFStringFromNetworkReachabilityStatus`): `Unknown`,
    /// `Not Reachable`, `Reachable via WWAN` or `Reachable via WiFi`.
    public var description: String {
        switch self {
        case .unknown: "Unknown"
        case .notReachable: "Not Reachable"
        case .reachableViaWWAN: "Reachable via WWAN"
        case .reachableViaWiFi: "Reachable via WiFi"
        }
    }

    /// Whether the destination is reachable at all: via WWAN or via WiFi.
    public var isReachable: Bool { self == .reachableViaWWAN || self == .reachableViaWiFi }
}
