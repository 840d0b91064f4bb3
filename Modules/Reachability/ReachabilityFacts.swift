/// What the kernel says about the network at one moment, as far as one destination is concerned:
/// the links, the addresses, and the route the kernel would choose for each of the destination's
/// addresses. ``ReachabilityEvaluator`` turns it into a ``NetworkPath`` without touching the system.
struct ReachabilityFacts: Sendable, Hashable {
    /// Every link, keyed by interface index.
    var links: [Int32: LinkFacts]
    /// Every configured address.
    var addresses: [AddressFacts]
    /// One lookup per destination address, in order of preference.
    var lookups: [RouteLookup]
}

/// A network interface's state (`RTM_NEWLINK`), with its classification.
struct LinkFacts: Sendable, Hashable {
    var index: Int32
    var name: String
    /// `IFF_UP`: administratively up.
    var isUp: Bool
    /// `IFF_RUNNING`: up and with carrier (operationally up).
    var isRunning: Bool
    /// `IFLA_OPERSTATE` (RFC 2863).
    var operationalState: OperationalState
    var classification: InterfaceClassification
}

/// RFC 2863's operational states, as `IFLA_OPERSTATE` numbers them.
enum OperationalState: UInt8, Sendable, Hashable {
    case unknown = 0
    case notPresent = 1
    case down = 2
    case lowerLayerDown = 3
    case testing = 4
    case dormant = 5
    case up = 6
}

/// One configured address (`RTM_NEWADDR`).
struct AddressFacts: Sendable, Hashable {
    var interfaceIndex: Int32
    var address: IPAddress
    /// Still in duplicate-address detection, or failed it: the kernel will not use it as a source.
    var isTentative: Bool
}

/// The kernel's answer to `RTM_GETROUTE` for one destination (what `ip route get` prints).
enum RouteLookup: Sendable, Hashable {
    /// The route the kernel would use.
    case route(RouteFacts)
    /// No route: the error the kernel answered with (`ENETUNREACH`, `EHOSTUNREACH`, …).
    case unreachable(destination: IPAddress, errno: Int32)
}

/// The route the kernel chose for a destination.
struct RouteFacts: Sendable, Hashable {
    var destination: IPAddress
    var type: RouteType
    var outputInterface: Int32
    var gateway: IPAddress?
    /// The source address the kernel picked (`RTA_PREFSRC`); `nil` when it found none.
    var preferredSource: IPAddress?
    /// `RTNH_F_LINKDOWN`: the next hop's carrier is down.
    var isLinkDown: Bool
}

/// `rtm_type`, reduced to what matters for reachability.
enum RouteType: Sendable, Hashable {
    /// `RTN_UNICAST`: a usable route.
    case unicast
    /// `RTN_LOCAL`: the destination is this host.
    case local
    /// `RTN_UNREACHABLE`, `RTN_BLACKHOLE`, `RTN_PROHIBIT` or anything else: no way there.
    case unusable(UInt8)
}
