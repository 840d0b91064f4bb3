internal import CCourierNetlink
internal import CourierReachability
internal import Glibc

/// The bytes of the two kinds of request the monitor sends: a dump of every link or address, and a
/// route lookup for one destination (`RTM_GETROUTE` with `RTA_DST`, what `ip route get` sends; the
/// kernel answers from its tables and no packet leaves the machine).
enum NetlinkRequest {
    /// `RTM_GETLINK` or `RTM_GETADDR` with `NLM_F_DUMP`, for every family.
    static func dump(type: UInt16, sequence: UInt32) -> [UInt8] {
        // ifinfomsg is the larger of the two fixed parts; the kernel reads only the family byte of it.
        message(
            type: type,
            flags: UInt16(NLM_F_REQUEST | NLM_F_DUMP),
            sequence: sequence,
            fixed: [UInt8](repeating: 0, count: MemoryLayout<ifinfomsg>.size)
        )
    }

    /// `RTM_GETROUTE` for one destination address.
    static func routeLookup(to destination: IPAddress, sequence: UInt32) -> [UInt8] {
        var route = rtmsg()
        route.rtm_family = UInt8(destination.family == .ipv4 ? AF_INET : AF_INET6)
        route.rtm_dst_len = UInt8(destination.bytes.count * 8)
        var fixed = withUnsafeBytes(of: &route) { Array($0) }
        var attribute = rtattr()
        attribute.rta_len = UInt16(MemoryLayout<rtattr>.size + destination.bytes.count)
        attribute.rta_type = UInt16(RTA_DST.rawValue)
        fixed += withUnsafeBytes(of: &attribute) { Array($0) }
        fixed += destination.bytes
        return message(type: UInt16(RTM_GETROUTE), flags: UInt16(NLM_F_REQUEST), sequence: sequence, fixed: fixed)
    }

    private static func message(type: UInt16, flags: UInt16, sequence: UInt32, fixed: [UInt8]) -> [UInt8] {
        var header = nlmsghdr()
        header.nlmsg_len = UInt32(MemoryLayout<nlmsghdr>.size + fixed.count)
        header.nlmsg_type = type
        header.nlmsg_flags = flags
        header.nlmsg_seq = sequence
        var bytes = withUnsafeBytes(of: &header) { Array($0) } + fixed
        bytes += [UInt8](repeating: 0, count: NetlinkParser.align(bytes.count) - bytes.count)
        return bytes
    }
}
