/// Hand-built rtnetlink messages in host byte order, as the kernel sends them (RFC 3549 framing:
/// a 16-byte header, a fixed part, then 4-byte-aligned attributes).
enum NetlinkBytes {
    static let newLink: UInt16 = 16
    static let newAddress: UInt16 = 20
    static let newRoute: UInt16 = 24
    static let done: UInt16 = 3
    static let error: UInt16 = 2

    static func integer<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    static func padded(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
    }

    static func attribute(_ type: UInt16, _ value: [UInt8]) -> [UInt8] {
        padded(integer(UInt16(4 + value.count)) + integer(type) + value)
    }

    static func string(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }

    static func message(type: UInt16, sequence: UInt32 = 0, body: [UInt8]) -> [UInt8] {
        let body = padded(body)
        return integer(UInt32(16 + body.count)) + integer(type) + integer(UInt16(0)) + integer(sequence)
            + integer(UInt32(0)) + body
    }

    /// `ifinfomsg` (16 bytes) with IFLA_IFNAME (3), IFLA_OPERSTATE (16) and IFLA_LINKINFO (18) holding
    /// IFLA_INFO_KIND (1).
    static func link(index: Int32, name: String, flags: UInt32, operationalState: UInt8, kind: String? = nil) -> [UInt8]
    {
        var body = [0, 0] + integer(UInt16(1)) + integer(index) + integer(flags) + integer(UInt32(0))
        body += attribute(3, string(name))
        body += attribute(16, [operationalState])
        if let kind { body += attribute(18, attribute(1, string(kind))) }
        return message(type: newLink, body: body)
    }

    /// `ifaddrmsg` (8 bytes) with IFA_ADDRESS (1) and IFA_FLAGS (8).
    static func address(index: UInt32, bytes: [UInt8], flags: UInt32) -> [UInt8] {
        let family: UInt8 = bytes.count == 4 ? 2 : 10
        var body: [UInt8] = [family, UInt8(bytes.count * 8), 0, 0] + integer(index)
        body += attribute(1, bytes)
        body += attribute(8, integer(flags))
        return message(type: newAddress, body: body)
    }

    /// `rtmsg` (12 bytes) with RTA_DST (1), RTA_OIF (4), RTA_GATEWAY (5) and RTA_PREFSRC (7).
    static func route(
        sequence: UInt32 = 0,
        type: UInt8 = 1,
        flags: UInt32 = 0,
        destination: [UInt8],
        interface: Int32,
        gateway: [UInt8]?,
        source: [UInt8]?
    ) -> [UInt8] {
        var body: [UInt8] = [2, 32, 0, 0, 254, 0, 0, type] + integer(flags)
        body += attribute(1, destination)
        body += attribute(4, integer(interface))
        if let gateway { body += attribute(5, gateway) }
        if let source { body += attribute(7, source) }
        return message(type: newRoute, sequence: sequence, body: body)
    }
}
