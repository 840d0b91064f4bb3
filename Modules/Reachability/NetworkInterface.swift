/// The network interface a path leaves through.
public struct NetworkInterface: Sendable, Hashable, CustomStringConvertible {
    /// The kernel's interface index.
    public var index: Int32
    /// The interface name, such as `eth0` or `wlan0`.
    public var name: String
    /// What kind of interface it is, as the monitor's interface classifier decided.
    public var kind: InterfaceKind

    /// Creates an interface description.
    ///
    /// - Parameters:
    ///   - index: The kernel's interface index.
    ///   - name: The interface name.
    ///   - kind: What kind of interface it is.
    public init(index: Int32, name: String, kind: InterfaceKind) {
        self.index = index
        self.name = name
        self.kind = kind
    }

    /// `name (kind)`, such as `wlan0 (wifi)`.
    public var description: String { "\(name) (\(kind.rawValue))" }
}
