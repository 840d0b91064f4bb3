public import CourierReachability
internal import FoundationEssentials
internal import Glibc

/// Classifies interfaces from the kernel's facts and `/sys/class/net/<name>`.
///
/// In order:
/// 1. hardware type 772 (`ARPHRD_LOOPBACK`): `InterfaceKind.loopback`;
/// 2. `DEVTYPE=wwan` in `uevent`, or hardware type 519 (`ARPHRD_RAWIP`) or 512 (`ARPHRD_PPP`):
///    `InterfaceKind.cellular`;
/// 3. `DEVTYPE=wlan` in `uevent`, or a `wireless` folder: `InterfaceKind.wifi`;
/// 4. link kind `tun` or `wireguard`, `DEVTYPE=wireguard`, a `tun_flags` file, or hardware type
///    65534 (`ARPHRD_NONE`): `InterfaceKind.virtual` and a VPN;
/// 5. hardware type 1 (Ethernet) with a `device` link (a real bus device): `InterfaceKind.wired`;
///    without one, or with a link kind such as `veth` or `bridge`: `InterfaceKind.virtual`;
/// 6. anything else: `InterfaceKind.other`.
///
/// Under `ip netns exec`, `/sys` is remounted for the namespace, so the namespace's interfaces are
/// the ones found. A veth named `wwan0` has type 1 and no `DEVTYPE`: it is virtual, not cellular,
/// unless a classifier of your own says so.
///
/// ```swift
/// let kind = SysfsInterfaceClassifier().classify(
///     InterfaceDescriptor(index: 2, name: "wlan0", hardwareType: 1)
/// ).kind  // .wifi on a laptop
/// ```
public struct SysfsInterfaceClassifier: InterfaceClassifying {
    /// The folder that holds one folder per interface.
    public var root: String

    /// Creates a classifier that reads `root`.
    ///
    /// - Parameter root: The sysfs network-class folder; `/sys/class/net` unless testing.
    public init(root: String = "/sys/class/net") {
        self.root = root
    }

    /// Classifies one interface; see the type's discussion for the rules.
    ///
    /// - Parameter interface: The kernel's facts about the interface.
    /// - Returns: Its kind and whether it is a VPN.
    public func classify(_ interface: InterfaceDescriptor) -> InterfaceClassification {
        let folder = root + "/" + interface.name
        let deviceType = Self.deviceType(inUevent: folder + "/uevent")
        if interface.hardwareType == 772 { return InterfaceClassification(kind: .loopback) }
        if deviceType == "wwan" || interface.hardwareType == 519 || interface.hardwareType == 512 {
            return InterfaceClassification(kind: .cellular)
        }
        if deviceType == "wlan" || Self.exists(folder + "/wireless") { return InterfaceClassification(kind: .wifi) }
        if interface.linkKind == "tun" || interface.linkKind == "wireguard" || deviceType == "wireguard"
            || Self.exists(folder + "/tun_flags") || interface.hardwareType == 65534
        {
            return InterfaceClassification(kind: .virtual, isVirtualPrivateNetwork: true)
        }
        if interface.hardwareType == 1 {
            let physical = interface.linkKind == nil && Self.exists(folder + "/device")
            return InterfaceClassification(kind: physical ? .wired : .virtual)
        }
        return InterfaceClassification(kind: .other)
    }

    private static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The `DEVTYPE=` value of a sysfs `uevent` file, if it has one.
    private static func deviceType(inUevent path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("DEVTYPE=") {
            return String(line.dropFirst("DEVTYPE=".count))
        }
        return nil
    }
}
