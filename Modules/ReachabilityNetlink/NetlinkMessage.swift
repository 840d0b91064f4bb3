internal import CourierReachability

/// One rtnetlink message the monitor understands (RFC 3549; man 7 rtnetlink).
struct NetlinkMessage: Sendable, Hashable {
    /// `nlmsg_type`.
    var type: UInt16
    /// `nlmsg_seq`: the request this answers; events from other processes carry theirs.
    var sequence: UInt32
    /// `nlmsg_pid`: the port of the process whose request caused it (0 for the kernel's own).
    var portID: UInt32
    var payload: Payload

    enum Payload: Sendable, Hashable {
        /// `RTM_NEWLINK` or `RTM_DELLINK`.
        case link(LinkMessage)
        /// `RTM_NEWADDR` or `RTM_DELADDR`.
        case address(AddressMessage)
        /// `RTM_NEWROUTE` or `RTM_DELROUTE`.
        case route(RouteMessage)
        /// `NLMSG_DONE`: the end of a dump.
        case done
        /// `NLMSG_ERROR`: a negative errno, or 0 for an acknowledgement.
        case error(Int32)
        /// Any other type, kept only so that events can be counted.
        case other
    }
}

/// The parts of `ifinfomsg` and its attributes that reachability needs.
struct LinkMessage: Sendable, Hashable {
    var isDeletion: Bool
    var index: Int32
    /// `ifi_type`: the `ARPHRD_*` hardware type.
    var hardwareType: UInt16
    /// `ifi_flags` (`IFF_UP`, `IFF_RUNNING`, `IFF_LOWER_UP`, …).
    var flags: UInt32
    /// `IFLA_IFNAME`.
    var name: String?
    /// `IFLA_OPERSTATE`.
    var operationalState: UInt8?
    /// `IFLA_INFO_KIND` inside `IFLA_LINKINFO`.
    var linkKind: String?
}

/// The parts of `ifaddrmsg` and its attributes that reachability needs.
struct AddressMessage: Sendable, Hashable {
    var isDeletion: Bool
    var index: Int32
    /// `ifa_flags`, widened by `IFA_FLAGS` when present.
    var flags: UInt32
    /// `IFA_LOCAL` when present (the local end of a point-to-point link), else `IFA_ADDRESS`.
    var address: IPAddress?
}

/// The parts of `rtmsg` and its attributes that reachability needs.
struct RouteMessage: Sendable, Hashable {
    var isDeletion: Bool
    var family: UInt8
    /// `rtm_type` (`RTN_UNICAST`, `RTN_LOCAL`, `RTN_UNREACHABLE`, …).
    var type: UInt8
    /// `rtm_flags` (`RTNH_F_LINKDOWN`, …).
    var flags: UInt32
    /// `RTA_DST`.
    var destination: IPAddress?
    /// `RTA_OIF`.
    var outputInterface: Int32?
    /// `RTA_GATEWAY`.
    var gateway: IPAddress?
    /// `RTA_PREFSRC`.
    var preferredSource: IPAddress?
}
