import Testing

@testable import CourierReachability

/// The status mapping over hand-made fact snapshots: no socket, no network.
private typealias Fixture = ReachabilityEvaluatorTests

@Suite struct ReachabilityEvaluatorTests {
    static let v4Destination = IPAddress("203.0.113.5")!
    static let v6Destination = IPAddress("2001:db8::5")!
    static let gateway = IPAddress("192.168.1.1")!

    static func link(
        _ index: Int32,
        _ name: String,
        kind: InterfaceKind,
        vpn: Bool = false,
        up: Bool = true,
        running: Bool = true,
        state: OperationalState = .up
    ) -> LinkFacts {
        LinkFacts(
            index: index,
            name: name,
            isUp: up,
            isRunning: running,
            operationalState: state,
            classification: InterfaceClassification(kind: kind, isVirtualPrivateNetwork: vpn)
        )
    }

    static func route(
        to destination: IPAddress = v4Destination,
        via interface: Int32 = 2,
        type: RouteType = .unicast,
        gateway: IPAddress? = gateway,
        source: IPAddress? = IPAddress("192.168.1.20"),
        linkDown: Bool = false
    ) -> RouteLookup {
        .route(
            RouteFacts(
                destination: destination,
                type: type,
                outputInterface: interface,
                gateway: gateway,
                preferredSource: source,
                isLinkDown: linkDown
            )
        )
    }

    static func facts(_ links: [LinkFacts], _ lookups: [RouteLookup], addresses: [AddressFacts] = [])
        -> ReachabilityFacts
    {
        ReachabilityFacts(
            links: Dictionary(uniqueKeysWithValues: links.map { ($0.index, $0) }),
            addresses: addresses,
            lookups: lookups
        )
    }

    @Test(arguments: [
        (InterfaceKind.wired, ReachabilityStatus.reachableViaWiFi),
        (.wifi, .reachableViaWiFi),
        (.cellular, .reachableViaWWAN),
        (.virtual, .reachableViaWiFi),
        (.other, .reachableViaWiFi),
    ])
    func mapsTheEgressKindToAFNetworkingsStatus(kind: InterfaceKind, expected: ReachabilityStatus) {
        let path = ReachabilityEvaluator.path(for: Self.facts([Self.link(2, "if2", kind: kind)], [Self.route()]))
        #expect(path.status == expected)
        #expect(path.interface == NetworkInterface(index: 2, name: "if2", kind: kind))
        #expect(path.gateway == Self.gateway)
        #expect(path.supportsIPv4)
        #expect(!path.supportsIPv6)
    }

    @Test func wifiLaptopIsReachableViaWiFi() {
        let path = ReachabilityEvaluator.path(
            for: Self.facts(
                [Self.link(1, "lo", kind: .loopback, state: .unknown), Self.link(3, "wlan0", kind: .wifi)],
                [Self.route(via: 3)]
            )
        )
        #expect(path.description == "Reachable via WiFi via wlan0 (wifi) IPv4 gateway 192.168.1.1")
    }

    @Test func cellularModemIsReachableViaWWANWithoutGatewayOnAPointToPointLink() {
        let path = ReachabilityEvaluator.path(
            for: Self.facts(
                [Self.link(4, "wwan0", kind: .cellular, state: .unknown)],
                [Self.route(via: 4, gateway: nil)]
            )
        )
        #expect(path.status == .reachableViaWWAN)
        #expect(path.interface?.name == "wwan0")
        #expect(path.gateway == nil)
    }

    @Test func aLocalDestinationIsReachableThroughLoopback() {
        let loopback = IPAddress("127.0.0.1")!
        let path = ReachabilityEvaluator.path(
            for: Self.facts(
                [Self.link(1, "lo", kind: .loopback, state: .unknown)],
                [Self.route(to: loopback, via: 1, type: .local, gateway: nil, source: nil)]
            )
        )
        #expect(path.status == .reachableViaWiFi)
        #expect(path.interface?.kind == .loopback)
    }

    @Test func vpnTunnelIsFlagged() {
        let path = ReachabilityEvaluator.path(
            for: Self.facts(
                [Self.link(7, "wg0", kind: .virtual, vpn: true, state: .unknown)],
                [Self.route(via: 7, gateway: nil)]
            )
        )
        #expect(path.status == .reachableViaWiFi)
        #expect(path.isVirtualPrivateNetwork)
    }

    @Test(arguments: [
        (
            "no route", [Fixture.link(2, "eth0", kind: .wired)],
            [RouteLookup.unreachable(destination: Fixture.v4Destination, errno: 101)]
        ),
        ("no lookup (name did not resolve)", [Fixture.link(2, "eth0", kind: .wired)], []),
        (
            "administratively down", [Fixture.link(2, "eth0", kind: .wired, up: false, running: false, state: .down)],
            [Fixture.route()]
        ),
        (
            "carrier lost", [Fixture.link(2, "eth0", kind: .wired, running: false, state: .lowerLayerDown)],
            [Fixture.route()]
        ),
        ("dormant", [Fixture.link(2, "wlan0", kind: .wifi, state: .dormant)], [Fixture.route()]),
        ("route marked linkdown", [Fixture.link(2, "eth0", kind: .wired)], [Fixture.route(linkDown: true)]),
        ("blackhole route", [Fixture.link(2, "eth0", kind: .wired)], [Fixture.route(type: .unusable(6))]),
        ("unreachable route", [Fixture.link(2, "eth0", kind: .wired)], [Fixture.route(type: .unusable(7))]),
        ("unknown output interface", [Fixture.link(2, "eth0", kind: .wired)], [Fixture.route(via: 9)]),
        ("no source address", [Fixture.link(2, "eth0", kind: .wired)], [Fixture.route(source: nil)]),
    ])
    func isNotReachableWhen(_ situation: String, links: [LinkFacts], lookups: [RouteLookup]) {
        let path = ReachabilityEvaluator.path(for: Self.facts(links, lookups))
        #expect(path == .unreachable, "\(situation)")
    }

    @Test func aSourceAddressOnTheInterfaceIsEnoughWithoutPreferredSource() {
        let links = [Self.link(2, "eth0", kind: .wired)]
        let lookups = [Self.route(source: nil)]
        let usable = AddressFacts(interfaceIndex: 2, address: IPAddress("192.168.1.20")!, isTentative: false)
        let tentative = AddressFacts(interfaceIndex: 2, address: IPAddress("192.168.1.20")!, isTentative: true)
        let otherFamily = AddressFacts(interfaceIndex: 2, address: IPAddress("fe80::1")!, isTentative: false)
        let otherInterface = AddressFacts(interfaceIndex: 5, address: IPAddress("10.0.0.2")!, isTentative: false)

        #expect(
            ReachabilityEvaluator.path(for: Self.facts(links, lookups, addresses: [usable])).status == .reachableViaWiFi
        )
        for addresses in [[tentative], [otherFamily], [otherInterface]] {
            #expect(ReachabilityEvaluator.path(for: Self.facts(links, lookups, addresses: addresses)) == .unreachable)
        }
    }

    @Test func takesTheFirstUsableAddressAndReportsEachFamily() {
        let links = [
            Self.link(2, "eth0", kind: .wired, running: false, state: .lowerLayerDown),
            Self.link(3, "wwan0", kind: .cellular),
        ]
        let lookups = [
            Self.route(to: Self.v4Destination, via: 2),
            Self.route(
                to: Self.v6Destination,
                via: 3,
                gateway: IPAddress("fe80::1"),
                source: IPAddress("2001:db8::20")
            ),
        ]
        let path = ReachabilityEvaluator.path(for: Self.facts(links, lookups))
        #expect(path.status == .reachableViaWWAN)
        #expect(path.interface?.name == "wwan0")
        #expect(!path.supportsIPv4)
        #expect(path.supportsIPv6)
        #expect(path.gateway == IPAddress("fe80::1"))

        let bothUp = [Self.link(2, "eth0", kind: .wired), Self.link(3, "wwan0", kind: .cellular)]
        let preferred = ReachabilityEvaluator.path(for: Self.facts(bothUp, lookups))
        #expect(preferred.status == .reachableViaWiFi)
        #expect(preferred.interface?.name == "eth0")
        #expect(preferred.supportsIPv4 && preferred.supportsIPv6)
    }
}
