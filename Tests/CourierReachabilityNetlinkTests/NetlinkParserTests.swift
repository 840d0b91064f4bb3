import CourierReachability
import CourierTestSupport
import Testing

@testable import CourierReachabilityNetlink

@Suite struct NetlinkParserTests {
    @Test func decodesALinkWithNameStateAndKind() throws {
        let bytes = NetlinkBytes.link(index: 4, name: "wwan0", flags: 0x1_1043, operationalState: 6, kind: "veth")
        let result = NetlinkParser.parse(bytes)
        #expect(result.problems.isEmpty)
        let message = try #require(result.messages.first)
        #expect(result.messages.count == 1)
        #expect(message.type == 16)
        #expect(
            message.payload
                == .link(
                    LinkMessage(
                        isDeletion: false,
                        index: 4,
                        hardwareType: 1,
                        flags: 0x1_1043,
                        name: "wwan0",
                        operationalState: 6,
                        linkKind: "veth"
                    )
                )
        )
    }

    @Test func decodesAnAddressAndARouteAndTheEndOfADump() {
        let bytes =
            NetlinkBytes.address(index: 2, bytes: [10, 99, 0, 1], flags: 0x40)
            + NetlinkBytes.route(
                sequence: 7,
                destination: [10, 99, 0, 2],
                interface: 2,
                gateway: [10, 99, 0, 254],
                source: [10, 99, 0, 1]
            )
            + NetlinkBytes.message(type: NetlinkBytes.done, body: NetlinkBytes.integer(Int32(0)))
        let result = NetlinkParser.parse(bytes)
        #expect(result.problems.isEmpty)
        #expect(
            result.messages.map(\.payload) == [
                .address(AddressMessage(isDeletion: false, index: 2, flags: 0x40, address: IPAddress("10.99.0.1"))),
                .route(
                    RouteMessage(
                        isDeletion: false,
                        family: 2,
                        type: 1,
                        flags: 0,
                        destination: IPAddress("10.99.0.2"),
                        outputInterface: 2,
                        gateway: IPAddress("10.99.0.254"),
                        preferredSource: IPAddress("10.99.0.1")
                    )
                ),
                .done,
            ]
        )
        #expect(result.messages[1].sequence == 7)
    }

    @Test func decodesAKernelError() {
        let bytes = NetlinkBytes.message(
            type: NetlinkBytes.error,
            body: NetlinkBytes.integer(Int32(-101)) + [UInt8](repeating: 0, count: 16)
        )
        #expect(NetlinkParser.parse(bytes).messages.map(\.payload) == [.error(-101)])
    }

    @Test func aHeaderLongerThanTheDatagramEndsItButKeepsWhatCameBefore() {
        let good = NetlinkBytes.link(index: 1, name: "lo", flags: 0x49, operationalState: 0)
        var bad = NetlinkBytes.link(index: 2, name: "eth0", flags: 0x1043, operationalState: 6)
        bad.removeLast(8)
        let result = NetlinkParser.parse(good + bad)
        #expect(result.messages.count == 1)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.contains("claims") == true)
    }

    @Test func anAttributeLongerThanItsMessageSkipsOnlyThatMessage() {
        var broken = NetlinkBytes.link(index: 2, name: "eth0", flags: 0x1043, operationalState: 6)
        // The first attribute (IFLA_IFNAME) starts after the 16-byte header and 16-byte ifinfomsg.
        broken[32] = 0xFF
        let after = NetlinkBytes.link(index: 3, name: "wlan0", flags: 0x1043, operationalState: 6)
        let result = NetlinkParser.parse(broken + after)
        #expect(result.problems.count == 1)
        guard case .link(let link) = result.messages.first?.payload else {
            Issue.record("the message after the broken one was lost: \(result.messages)")
            return
        }
        #expect(link.name == "wlan0")
        #expect(result.messages.count == 1)
    }

    @Test func aFixedPartThatDoesNotFitIsSkipped() {
        let short = NetlinkBytes.message(type: NetlinkBytes.newRoute, body: [2, 32, 0, 0])
        let result = NetlinkParser.parse(short + NetlinkBytes.message(type: NetlinkBytes.done, body: [0, 0, 0, 0]))
        #expect(result.messages.map(\.payload) == [.done])
        #expect(result.problems == ["message type 24 at offset 0: 4 bytes cannot hold rtmsg (12)"])
    }

    @Test func headerLengthBelowTheHeaderSizeIsRejected() {
        var bytes = NetlinkBytes.message(type: NetlinkBytes.done, body: [0, 0, 0, 0])
        bytes.replaceSubrange(0..<4, with: NetlinkBytes.integer(UInt32(3)))
        let result = NetlinkParser.parse(bytes)
        #expect(result.messages.isEmpty)
        #expect(result.problems == ["message at offset 0 claims 3 bytes; 20 remain"])
    }

    @Test func trailingBytesAreReported() {
        let result = NetlinkParser.parse(
            NetlinkBytes.message(type: NetlinkBytes.done, body: [0, 0, 0, 0]) + [1, 2, 3]
        )
        #expect(result.messages.map(\.payload) == [.done])
        #expect(result.problems == ["3 trailing bytes at offset 20 hold no message"])
    }

    /// Random garbage, and every truncation and single-byte corruption of real messages, parse
    /// without trapping; whatever is returned is framed inside the input.
    @Test func garbageNeverCrashes() {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var random = SeededRandom(seed: seed)
        let valid =
            NetlinkBytes.link(index: 2, name: "eth0", flags: 0x1043, operationalState: 6, kind: "veth")
            + NetlinkBytes.address(index: 2, bytes: [10, 0, 0, 1], flags: 0)
            + NetlinkBytes.route(destination: [10, 0, 0, 2], interface: 2, gateway: nil, source: nil)
        var parsedMessages = 0
        for length in 0...valid.count {
            parsedMessages += NetlinkParser.parse(Array(valid.prefix(length))).messages.count
        }
        #expect(parsedMessages > 0)
        for _ in 0..<2000 {
            var corrupted = valid
            corrupted[Int.random(in: 0..<corrupted.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            _ = NetlinkParser.parse(corrupted)
            let noise = (0..<Int.random(in: 0..<96, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            _ = NetlinkParser.parse(noise)
        }
    }

    @Test func routeLookupRequestLayout() {
        let bytes = NetlinkRequest.routeLookup(to: IPAddress("10.99.0.2")!, sequence: 9)
        // nlmsghdr: length 36, RTM_GETROUTE (26), NLM_F_REQUEST, sequence 9, port 0.
        #expect(
            Array(bytes[0..<16]) == NetlinkBytes.integer(UInt32(36)) + NetlinkBytes.integer(UInt16(26))
                + NetlinkBytes.integer(UInt16(1)) + NetlinkBytes.integer(UInt32(9)) + NetlinkBytes.integer(UInt32(0))
        )
        // rtmsg: AF_INET, a /32 destination, everything else zero.
        #expect(Array(bytes[16..<28]) == [2, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        // RTA_DST (1), 8 bytes, the address.
        #expect(Array(bytes[28..<36]) == [8, 0, 1, 0, 10, 99, 0, 2])
        #expect(bytes.count == 36)
    }

    @Test func dumpRequestLayout() {
        let bytes = NetlinkRequest.dump(type: 18, sequence: 1)
        #expect(bytes.count == 32)
        // NLM_F_REQUEST | NLM_F_DUMP (0x300).
        #expect(Array(bytes[4..<8]) == NetlinkBytes.integer(UInt16(18)) + NetlinkBytes.integer(UInt16(0x301)))
        #expect(bytes[16...].allSatisfy { $0 == 0 })
    }
}
