/// What a classifier is told about an interface: the kernel's own facts, from `RTM_NEWLINK`.
public struct InterfaceDescriptor: Sendable, Hashable {
    /// The kernel's interface index.
    public var index: Int32
    /// The interface name, such as `wlan0`.
    public var name: String
    /// The hardware type (`ARPHRD_*`, as in `/sys/class/net/<name>/type`): 1 Ethernet, 772 loopback,
    /// 65534 none (tun).
    public var hardwareType: UInt16
    /// The link kind the kernel reports (`IFLA_INFO_KIND`: `veth`, `tun`, `wireguard`, `bridge`…);
    /// `nil` for physical devices.
    public var linkKind: String?

    /// Creates a descriptor.
    ///
    /// - Parameters:
    ///   - index: The kernel's interface index.
    ///   - name: The interface name.
    ///   - hardwareType: The `ARPHRD_*` hardware type.
    ///   - linkKind: The `IFLA_INFO_KIND` link kind, if any.
    public init(index: Int32, name: String, hardwareType: UInt16, linkKind: String? = nil) {
        self.index = index
        self.name = name
        self.hardwareType = hardwareType
        self.linkKind = linkKind
    }
}

/// What a classifier decided about an interface.
public struct InterfaceClassification: Sendable, Hashable {
    /// The interface's kind; ``InterfaceKind/cellular`` makes a path AFNetworking's WWAN.
    public var kind: InterfaceKind
    /// Whether the interface is a VPN tunnel.
    public var isVirtualPrivateNetwork: Bool

    /// Creates a classification.
    ///
    /// - Parameters:
    ///   - kind: The interface's kind.
    ///   - isVirtualPrivateNetwork: Whether it is a VPN tunnel.
    public init(kind: InterfaceKind, isVirtualPrivateNetwork: Bool = false) {
        self.kind = kind
        self.isVirtualPrivateNetwork = isVirtualPrivateNetwork
    }
}

/// Decides what kind of interface a path leaves through.
///
/// `SysfsInterfaceClassifier` reads `/sys/class/net`; inject another to mark interfaces yourself,
/// for instance a test's veth named `wwan0` as cellular:
///
/// ```swift
/// struct CellularByName: InterfaceClassifying {
///     let fallback = SysfsInterfaceClassifier()
///     func classify(_ interface: InterfaceDescriptor) -> InterfaceClassification {
///         interface.name.hasPrefix("wwan") ? InterfaceClassification(kind: .cellular) : fallback.classify(interface)
///     }
/// }
/// var configuration = NetlinkReachabilityMonitor.Configuration()
/// configuration.classifier = CellularByName()
/// ```
///
/// - Important: Called on the monitor's own thread at every evaluation, for every link: it must be
///   quick and must not wait for other work.
public protocol InterfaceClassifying: Sendable {
    /// Classifies one interface.
    ///
    /// - Parameter interface: The kernel's facts about the interface.
    /// - Returns: Its kind and whether it is a VPN.
    func classify(_ interface: InterfaceDescriptor) -> InterfaceClassification
}
