import CourierReachability
import Testing

@Suite struct ReachabilityStatusTests {
    @Test(arguments: [
        (ReachabilityStatus.unknown, -1, "Unknown", false),
        (.notReachable, 0, "Not Reachable", false),
        (.reachableViaWWAN, 1, "Reachable via WWAN", true),
        (.reachableViaWiFi, 2, "Reachable via WiFi", true),
    ])
    func keepsAFNetworkingsRawValuesAndStrings(status: ReachabilityStatus, raw: Int, text: String, reachable: Bool) {
        #expect(status.rawValue == raw)
        #expect(ReachabilityStatus(rawValue: raw) == status)
        #expect(status.description == text)
        #expect(status.isReachable == reachable)
    }

    @Test func describesAPathOnOneLine() {
        let path = NetworkPath(
            status: .reachableViaWWAN,
            interface: NetworkInterface(index: 3, name: "wwan0", kind: .cellular),
            isVirtualPrivateNetwork: false,
            supportsIPv4: true,
            supportsIPv6: true,
            gateway: IPAddress("10.0.0.1")
        )
        #expect(path.description == "Reachable via WWAN via wwan0 (cellular) IPv4+IPv6 gateway 10.0.0.1")
        #expect(NetworkPath.unknown.description == "Unknown")
        #expect(NetworkPath.unreachable.description == "Not Reachable")
    }

    @Test func parsesAndPrintsAddresses() throws {
        let v4 = try #require(IPAddress("192.0.2.10"))
        #expect(v4.bytes == [192, 0, 2, 10])
        #expect(v4.family == .ipv4)
        let v6 = try #require(IPAddress("2001:db8::1"))
        #expect(v6.family == .ipv6)
        #expect(v6.bytes.count == 16)
        #expect(v6.description == "2001:db8::1")
        #expect(IPAddress("example.com") == nil)
        #expect(IPAddress("300.1.1.1") == nil)
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }
}
