import Foundation
import Testing

/// The netlink monitor against real changes, in a network namespace the test creates and deletes.
///
/// The monitor runs inside the namespace as a helper process (`ip netns exec`, so that `/sys` and
/// the routing tables are the namespace's), watching the default route, an on-link address, a
/// host name from the namespace's own `hosts`, a name that does not resolve, a name added to
/// `hosts` later, and an address that a host route sends through a veth named `wwan0`, which the
/// helper's injected classifier calls cellular. The test changes the namespace with `ip -n` and
/// expects each change's deliveries, in order, within five seconds; it prints each latency.
///
/// Only private test addresses inside the namespace are used; nothing outside it is changed and no
/// packet leaves it (route lookups send none; names resolve from files or fail against a closed
/// port on the namespace's own 127.0.0.1).
@Suite struct ReachabilityNamespaceTests {
    static let bound = Duration.seconds(5)

    static let unreachable = "status=notReachable interface=- kind=- vpn=false ipv4=false ipv6=false gateway=-"
    static let onLink = "status=reachableViaWiFi interface=veth0 kind=virtual vpn=false ipv4=true ipv6=false gateway=-"
    static let viaGateway =
        "status=reachableViaWiFi interface=veth0 kind=virtual vpn=false ipv4=true ipv6=false gateway=10.99.0.254"
    static let cellular =
        "status=reachableViaWWAN interface=wwan0 kind=cellular vpn=false ipv4=true ipv6=false gateway=10.88.0.254"

    @Test(.enabled(if: getuid() == 0, "network namespaces need root"))
    func observesEveryChangeInOrderWithinTheBound() async throws {
        let helper = try #require(ReachabilityWatchProcess.binary, "CourierReachabilityWatch is not built")
        try await TestNetworkNamespace.with(
            prefix: "courier-reach",
            hosts: "127.0.0.1 localhost\n10.99.0.2 service.test\n"
        ) { namespace in
            // veth0 (10.99.0.1/24) and its peer veth1, which the test takes down for carrier loss;
            // wwan0 (10.88.0.1/24) and its peer wwan1, up from the start.
            try await namespace.run("link", "add", "veth0", "type", "veth", "peer", "name", "veth1")
            try await namespace.run("link", "add", "wwan0", "type", "veth", "peer", "name", "wwan1")
            try await namespace.run("addr", "add", "10.99.0.1/24", "dev", "veth0")
            try await namespace.run("addr", "add", "10.88.0.1/24", "dev", "wwan0")
            for link in ["veth1", "wwan1", "wwan0"] { try await namespace.run("link", "set", link, "up") }

            let watch = try ReachabilityWatchProcess(
                namespace: namespace,
                binary: helper,
                arguments: [
                    "--cellular", "wwan0", "--loopback-resolver-only", "D=default", "A=address:10.99.0.2",
                    "H=host:service.test",
                    "X=host:nowhere.test", "L=host:late.test", "C=address:10.77.0.9",
                ]
            )
            do {
                try await run(watch, namespace)
                await watch.stop()
            } catch {
                await watch.stop()
                throw error
            }
            #expect(!watch.standardError.contains("diagnostic:"), "\(watch.standardError)")
        }
    }

    private func run(_ watch: ReachabilityWatchProcess, _ namespace: TestNetworkNamespace) async throws {
        let all = ["D", "A", "H", "X", "L", "C"]
        try await expect(
            watch,
            "first evaluation",
            Dictionary(uniqueKeysWithValues: all.map { ($0, Self.unreachable) })
        ) {}
        try await expect(watch, "link up", ["A": Self.onLink, "H": Self.onLink]) {
            try await namespace.run("link", "set", "veth0", "up")
        }
        try await expect(watch, "default route added", ["D": Self.viaGateway, "C": Self.viaGateway]) {
            try await namespace.run("route", "add", "default", "via", "10.99.0.254", "dev", "veth0")
        }
        // The route stays; the link's carrier goes (operstate lowerlayerdown).
        try await expect(
            watch,
            "carrier loss",
            ["A": Self.unreachable, "H": Self.unreachable, "D": Self.unreachable, "C": Self.unreachable]
        ) {
            try await namespace.run("link", "set", "veth1", "down")
        }
        try await expect(
            watch,
            "carrier back",
            ["A": Self.onLink, "H": Self.onLink, "D": Self.viaGateway, "C": Self.viaGateway]
        ) {
            try await namespace.run("link", "set", "veth1", "up")
        }
        try await expect(watch, "default route removed", ["D": Self.unreachable, "C": Self.unreachable]) {
            try await namespace.run("route", "del", "default")
        }
        // late.test now resolves: the change makes every host monitor resolve again.
        try namespace.appendHost("10.99.0.3 late.test")
        try await expect(
            watch,
            "default route back",
            ["D": Self.viaGateway, "C": Self.viaGateway, "L": Self.onLink]
        ) {
            try await namespace.run("route", "add", "default", "via", "10.99.0.254", "dev", "veth0")
        }
        try await expect(watch, "host route through wwan0", ["C": Self.cellular]) {
            try await namespace.run("route", "add", "10.77.0.9/32", "via", "10.88.0.254", "dev", "wwan0")
        }
        // Removing the address takes its subnet route and the default route through it.
        try await expect(
            watch,
            "address removed",
            ["A": Self.unreachable, "H": Self.unreachable, "L": Self.unreachable, "D": Self.unreachable]
        ) {
            try await namespace.run("addr", "del", "10.99.0.1/24", "dev", "veth0")
        }
        try await expect(watch, "address back", ["A": Self.onLink, "H": Self.onLink, "L": Self.onLink]) {
            try await namespace.run("addr", "add", "10.99.0.1/24", "dev", "veth0")
        }
        // A link taken down drops its routes without a route-deleted event: the link event must do.
        try await expect(watch, "link down", ["A": Self.unreachable, "H": Self.unreachable, "L": Self.unreachable]) {
            try await namespace.run("link", "set", "veth0", "down")
        }
        try await expect(watch, "link up again", ["A": Self.onLink, "H": Self.onLink, "L": Self.onLink]) {
            try await namespace.run("link", "set", "veth0", "up")
        }
    }

    /// Runs `change`, then expects exactly one delivery for each label in `expected`, with those
    /// fields, within the bound, and no delivery for any other label; prints the latencies.
    private func expect(
        _ watch: ReachabilityWatchProcess,
        _ step: String,
        _ expected: [String: String],
        sourceLocation: SourceLocation = #_sourceLocation,
        after change: () async throws -> Void
    ) async throws {
        let start = ContinuousClock.now
        try await change()
        var pending = expected
        var latencies: [String] = []
        while !pending.isEmpty {
            guard let line = await watch.next(before: start + Self.bound) else {
                Issue.record(
                    "\(step): no delivery for \(pending.keys.sorted()) within \(Self.bound); stderr: \(watch.standardError)",
                    sourceLocation: sourceLocation
                )
                throw ToolError(message: "\(step) was not observed")
            }
            guard let fields = pending.removeValue(forKey: line.label) else {
                Issue.record(
                    "\(step): unexpected delivery \(line.label) \(line.fields)",
                    sourceLocation: sourceLocation
                )
                continue
            }
            #expect(line.fields == fields, "\(step): \(line.label)", sourceLocation: sourceLocation)
            let milliseconds =
                Double((line.arrival - start).components.attoseconds) / 1e15
                + Double((line.arrival - start).components.seconds) * 1000
            latencies.append("\(line.label) \(String(format: "%.0f", milliseconds)) ms")
        }
        print("reachability latency, \(step): \(latencies.joined(separator: ", "))")
    }
}
