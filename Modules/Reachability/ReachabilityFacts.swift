/// What the kernel says about the network at one moment, as far as one destination is concerned:
/// the links, the addresses, and the route the kernel would choose for each of the destination's
/// addresses. ``ReachabilityEvaluator`` turns it into a ``NetworkPath`` without touching the system.
package struct ReachabilityFacts: Sendable, Hashable {
    /// Every link, keyed by interface index.
    package var links: [Int32: LinkFacts]
    /// Every configured address.
    package var addresses: [AddressFacts]
    /// One lookup per destination address, in order of preference.
    package var lookups: [RouteLookup]

    package init(
        links: [Int32: LinkFacts],
        addresses: [AddressFacts],
        lookups: [RouteLookup]
    ) {
        self.links = links
        self.addresses = addresses
        self.lookups = lookups
    }
}

/// A network interface's state (`RTM_NEWLINK`), with its classification.
package struct LinkFacts: Sendable, Hashable {
    package var index: Int32
    package var name: String
    /// `IFF_UP`: administratively up.
    package var isUp: Bool
    /// `IFF_RUNNING`: up and with carrier (operationally up).
    package var isRunning: Bool
    /// `IFLA_OPERSTATE` (RFC 2863).
    package var operationalState: OperationalState
    package var classification: InterfaceClassification

    package init(
        index: Int32,
        name: String,
        isUp: Bool,
        isRunning: Bool,
        operationalState: OperationalState,
        classification: InterfaceClassification
    ) {
        self.index = index
        self.name = name
        self.isUp = isUp
        self.isRunning = isRunning
        self.operationalState = operationalState
        self.classification = classification
    }
}

/// RFC 2863's operational states, as `IFLA_OPERSTATE` numbers them.
package enum OperationalState: UInt8, Sendable, Hashable {
    case unknown = 0
    case notPresent = 1
    case down = 2
    case lowerLayerDown = 3
    case testing = 4
    case dormant = 5
    case up = 6
}

/// One configured address (`RTM_NEWADDR`).
package struct AddressFacts: Sendable, Hashable {
    package var interfaceIndex: Int32
    package var address: IPAddress
    /// Still in duplicate-address detection, or failed it: the kernel will not use it as a source.
    package var isTentative: Bool

    package init(
        interfaceIndex: Int32,
        address: IPAddress,
        isTentative: Bool
    ) {
        self.interfaceIndex = interfaceIndex
        self.address = address
        self.isTentative = isTentative
    }
}

/// The kernel's answer to `RTM_GETROUTE` for one destination (what `ip route get` prints).
package enum RouteLookup: Sendable, Hashable {
    /// The route the kernel would use.
    case route(RouteFacts)
    /// No route: the error the kernel answered with (`ENETUNREACH`, `EHOSTUNREACH`, …).
    case unreachable(destination: IPAddress, errno: Int32)
}

/// The route the kernel chose for a destination.
package struct RouteFacts: Sendable, Hashable {
    package var destination: IPAddress
    package var type: RouteType
    package var outputInterface: Int32
    package var gateway: IPAddress?
    /// The source address the kernel picked (`RTA_PREFSRC`); `nil` when it found none.
    package var preferredSource: IPAddress?
    /// `RTNH_F_LINKDOWN`: the next hop's carrier is down.
    package var isLinkDown: Bool

    package init(
        destination: IPAddress,
        type: RouteType,
        outputInterface: Int32,
        gateway: IPAddress?,
        preferredSource: IPAddress?,
        isLinkDown: Bool
    ) {
        self.destination = destination
        self.type = type
        self.outputInterface = outputInterface
        self.gateway = gateway
        self.preferredSource = preferredSource
        self.isLinkDown = isLinkDown
    }
}

/// `rtm_type`, reduced to what matters for reachability.
package enum RouteType: Sendable, Hashable {
    /// `RTN_UNICAST`: a usable route.
    case unicast
    /// `RTN_LOCAL`: the destination is this host.
    case local
    /// `RTN_UNREACHABLE`, `RTN_BLACKHOLE`, `RTN_PROHIBIT` or anything else: no way there.
    case unusable(UInt8)
}
