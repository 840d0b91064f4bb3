internal import CCourierNetlink
internal import CourierReachability

/// Splits a netlink datagram into messages and decodes the rtnetlink ones, checking every length
/// against the bytes actually there.
///
/// A message whose header claims more bytes than remain ends the datagram (nothing after it can be
/// framed); a message whose fixed part or attributes do not fit its own length is skipped. Both are
/// listed in `problems`; the good messages before and after are still returned.
enum NetlinkParser {
    struct Result: Sendable {
        var messages: [NetlinkMessage] = []
        var problems: [String] = []
    }

    static let headerSize = MemoryLayout<nlmsghdr>.size

    static func parse(_ bytes: [UInt8]) -> Result {
        bytes.withUnsafeBytes { parse($0) }
    }

    static func parse(_ buffer: UnsafeRawBufferPointer) -> Result {
        var result = Result()
        var offset = 0
        while buffer.count - offset >= headerSize {
            let header = buffer.loadUnaligned(fromByteOffset: offset, as: nlmsghdr.self)
            let length = Int(header.nlmsg_len)
            guard length >= headerSize, length <= buffer.count - offset else {
                result.problems.append(
                    "message at offset \(offset) claims \(length) bytes; \(buffer.count - offset) remain"
                )
                return result
            }
            let body = UnsafeRawBufferPointer(rebasing: buffer[(offset + headerSize)..<(offset + length)])
            do {
                let payload = try decodePayload(type: header.nlmsg_type, body: body)
                result.messages.append(
                    NetlinkMessage(
                        type: header.nlmsg_type,
                        sequence: header.nlmsg_seq,
                        portID: header.nlmsg_pid,
                        payload: payload
                    )
                )
            } catch {
                result.problems.append("message type \(header.nlmsg_type) at offset \(offset): \(error.reason)")
            }
            offset += align(length)
        }
        if offset < buffer.count {
            result.problems.append("\(buffer.count - offset) trailing bytes at offset \(offset) hold no message")
        }
        return result
    }

    struct Malformed: Error {
        var reason: String
    }

    static func align(_ length: Int) -> Int { (length + 3) & ~3 }

    private static func decodePayload(type: UInt16, body: UnsafeRawBufferPointer) throws(Malformed)
        -> NetlinkMessage.Payload
    {
        switch Int32(type) {
        case NLMSG_DONE:
            return .done
        case NLMSG_ERROR:
            return .error(try fixedPart(Int32.self, of: body, named: "nlmsgerr"))
        case Int32(RTM_NEWLINK), Int32(RTM_DELLINK):
            return .link(try decodeLink(body, isDeletion: Int32(type) == Int32(RTM_DELLINK)))
        case Int32(RTM_NEWADDR), Int32(RTM_DELADDR):
            return .address(try decodeAddress(body, isDeletion: Int32(type) == Int32(RTM_DELADDR)))
        case Int32(RTM_NEWROUTE), Int32(RTM_DELROUTE):
            return .route(try decodeRoute(body, isDeletion: Int32(type) == Int32(RTM_DELROUTE)))
        default:
            return .other
        }
    }

    /// The message's fixed part (`ifinfomsg`, `ifaddrmsg`, `rtmsg`, the error code), if the body holds it.
    private static func fixedPart<T>(_: T.Type, of body: UnsafeRawBufferPointer, named name: String) throws(Malformed)
        -> T
    {
        guard body.count >= MemoryLayout<T>.size else {
            throw Malformed(reason: "\(body.count) bytes cannot hold \(name) (\(MemoryLayout<T>.size))")
        }
        return body.loadUnaligned(as: T.self)
    }

    private static func decodeLink(_ body: UnsafeRawBufferPointer, isDeletion: Bool) throws(Malformed)
        -> LinkMessage
    {
        let fixed = try fixedPart(ifinfomsg.self, of: body, named: "ifinfomsg")
        var link = LinkMessage(
            isDeletion: isDeletion,
            index: fixed.ifi_index,
            hardwareType: fixed.ifi_type,
            flags: fixed.ifi_flags
        )
        try forEachAttribute(in: body, after: MemoryLayout<ifinfomsg>.size) { (kind, value) throws(Malformed) in
            switch Int(kind) {
            case Int(IFLA_IFNAME): link.name = string(value)
            case Int(IFLA_OPERSTATE): link.operationalState = value.first
            case Int(IFLA_LINKINFO):
                try forEachAttribute(in: value, after: 0) { (nested, nestedValue) throws(Malformed) in
                    if Int(nested) == Int(IFLA_INFO_KIND) { link.linkKind = string(nestedValue) }
                }
            default: break
            }
        }
        return link
    }

    private static func decodeAddress(_ body: UnsafeRawBufferPointer, isDeletion: Bool) throws(Malformed)
        -> AddressMessage
    {
        let fixed = try fixedPart(ifaddrmsg.self, of: body, named: "ifaddrmsg")
        var message = AddressMessage(
            isDeletion: isDeletion,
            index: Int32(bitPattern: fixed.ifa_index),
            flags: UInt32(fixed.ifa_flags)
        )
        var local: IPAddress?
        try forEachAttribute(in: body, after: MemoryLayout<ifaddrmsg>.size) { (kind, value) throws(Malformed) in
            switch Int(kind) {
            case Int(IFA_ADDRESS): message.address = IPAddress(bytes: Array(value))
            case Int(IFA_LOCAL): local = IPAddress(bytes: Array(value))
            case Int(IFA_FLAGS) where value.count >= 4: message.flags = value.loadUnaligned(as: UInt32.self)
            default: break
            }
        }
        if let local { message.address = local }
        return message
    }

    private static func decodeRoute(_ body: UnsafeRawBufferPointer, isDeletion: Bool) throws(Malformed)
        -> RouteMessage
    {
        let fixed = try fixedPart(rtmsg.self, of: body, named: "rtmsg")
        var route = RouteMessage(
            isDeletion: isDeletion,
            family: fixed.rtm_family,
            type: fixed.rtm_type,
            flags: fixed.rtm_flags
        )
        try forEachAttribute(in: body, after: MemoryLayout<rtmsg>.size) { (kind, value) throws(Malformed) in
            switch UInt32(kind) {
            case RTA_DST.rawValue: route.destination = IPAddress(bytes: Array(value))
            case RTA_GATEWAY.rawValue: route.gateway = IPAddress(bytes: Array(value))
            case RTA_PREFSRC.rawValue: route.preferredSource = IPAddress(bytes: Array(value))
            case RTA_OIF.rawValue where value.count >= 4: route.outputInterface = value.loadUnaligned(as: Int32.self)
            default: break
            }
        }
        return route
    }

    /// Calls `body` with each attribute (`rtattr`: a 4-byte length and type, then the value, padded
    /// to 4 bytes) from `start` on; throws when an attribute does not fit.
    static func forEachAttribute(
        in buffer: UnsafeRawBufferPointer,
        after start: Int,
        _ body: (UInt16, UnsafeRawBufferPointer) throws(Malformed) -> Void
    ) throws(Malformed) {
        let attributeHeader = MemoryLayout<rtattr>.size
        var offset = align(start)
        while offset < buffer.count {
            guard buffer.count - offset >= attributeHeader else {
                throw Malformed(reason: "\(buffer.count - offset) bytes at offset \(offset) cannot hold an attribute")
            }
            let header = buffer.loadUnaligned(fromByteOffset: offset, as: rtattr.self)
            let length = Int(header.rta_len)
            guard length >= attributeHeader, length <= buffer.count - offset else {
                throw Malformed(
                    reason: "attribute \(header.rta_type) at offset \(offset) claims \(length) bytes; "
                        + "\(buffer.count - offset) remain"
                )
            }
            // The top bits are NLA_F_NESTED and NLA_F_NET_BYTEORDER, not part of the type.
            try body(
                header.rta_type & 0x3FFF,
                UnsafeRawBufferPointer(rebasing: buffer[(offset + attributeHeader)..<(offset + length)])
            )
            offset += align(length)
        }
    }

    /// A NUL-terminated (or unterminated) attribute string.
    private static func string(_ value: UnsafeRawBufferPointer) -> String {
        String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
    }
}
