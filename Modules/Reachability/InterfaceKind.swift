/// What kind of network interface a path leaves through.
///
/// AFNetworking only tells WWAN from "WiFi"; Linux knows more, so the path keeps the kind, and
/// ``ReachabilityStatus`` maps it: ``cellular`` is `reachableViaWWAN`, every other kind
/// `reachableViaWiFi`.
public enum InterfaceKind: String, Sendable, Hashable, CaseIterable {
    /// A physical Ethernet device.
    case wired
    /// A wireless LAN device (`DEVTYPE=wlan` or a `wireless` folder in sysfs).
    case wifi
    /// A mobile broadband device (`DEVTYPE=wwan`, or a raw-IP or PPP link).
    case cellular
    /// The loopback device.
    case loopback
    /// A software device: veth, bridge, tun, WireGuard and the like.
    case virtual
    /// Anything the classifier cannot place.
    case other
}
