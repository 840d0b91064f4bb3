import CourierLocking
import CourierReachability
import Testing

@testable import CourierReachabilityNetlink

/// The monitor against this machine's kernel, on loopback destinations only: route lookups read the
/// kernel's tables and send nothing. Namespaces and real changes are in the integration tests.
@Suite struct NetlinkReachabilityMonitorTests {
    final class FixedResolver: HostResolving {
        let answer: [IPAddress]?
        let calls = Lock(0)

        init(answer: [IPAddress]?) {
            self.answer = answer
        }

        func resolve(_ host: String) async throws -> [IPAddress] {
            calls.withLock { $0 += 1 }
            guard let answer else { throw HostResolutionError(host: host, reason: "not in the test's table") }
            return answer
        }
    }

    struct Timeout: Error {}

    /// The first delivered path, or `Timeout` after five seconds.
    func firstPath(of monitor: NetlinkReachabilityMonitor) async throws -> NetworkPath {
        let paths = monitor.paths()
        return try await withThrowingTaskGroup(of: NetworkPath?.self) { group in
            group.addTask {
                for await path in paths { return path }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                throw Timeout()
            }
            defer { group.cancelAll() }
            guard let path = try await group.next() ?? nil else { throw Timeout() }
            return path
        }
    }

    /// The first `count` paths of `paths`, or `Timeout` after five seconds.
    func firstPaths(_ count: Int, of paths: AsyncStream<NetworkPath>) async throws -> [NetworkPath] {
        try await withThrowingTaskGroup(of: [NetworkPath]?.self) { group in
            group.addTask {
                var seen: [NetworkPath] = []
                for await path in paths {
                    seen.append(path)
                    if seen.count == count { return seen }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                throw Timeout()
            }
            defer { group.cancelAll() }
            guard let seen = try await group.next() ?? nil else { throw Timeout() }
            return seen
        }
    }

    @Test func loopbackAddressIsReachableThroughLo() async throws {
        let monitor = NetlinkReachabilityMonitor(target: .address(IPAddress("127.0.0.1")!))
        let handled = Lock<[ReachabilityStatus]>([])
        monitor.setReachabilityStatusChangeHandler { status in handled.withLock { $0.append(status) } }
        #expect(monitor.status == .unknown)
        monitor.startMonitoring()
        defer { monitor.stopMonitoring() }

        let path = try await firstPath(of: monitor)
        #expect(path.status == .reachableViaWiFi)
        #expect(path.interface?.name == "lo")
        #expect(path.interface?.kind == .loopback)
        #expect(path.supportsIPv4 && !path.supportsIPv6)
        #expect(monitor.status == .reachableViaWiFi)
        #expect(handled.withLock { $0 } == [.reachableViaWiFi])
    }

    @Test func hostResolvesThroughTheInjectedResolver() async throws {
        var configuration = NetlinkReachabilityMonitor.Configuration()
        let resolver = FixedResolver(answer: [IPAddress("::1")!, IPAddress("127.0.0.1")!])
        configuration.resolver = resolver
        let monitor = NetlinkReachabilityMonitor(target: .host("service.test"), configuration: configuration)
        monitor.startMonitoring()
        defer { monitor.stopMonitoring() }

        let path = try await firstPath(of: monitor)
        #expect(path.status == .reachableViaWiFi)
        #expect(path.interface?.kind == .loopback)
        #expect(path.supportsIPv4)
        #expect(resolver.calls.withLock { $0 } >= 1)
    }

    @Test func anUnresolvableHostIsNotReachable() async throws {
        var configuration = NetlinkReachabilityMonitor.Configuration()
        configuration.resolver = FixedResolver(answer: nil)
        let monitor = NetlinkReachabilityMonitor(target: .host("nowhere.test"), configuration: configuration)
        monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        #expect(try await firstPath(of: monitor) == .unreachable)
        #expect(monitor.status == .notReachable)
    }

    @Test func stopKeepsTheLastStatusAndRestartDeliversAgain() async throws {
        let monitor = NetlinkReachabilityMonitor(target: .address(IPAddress("127.0.0.1")!))
        monitor.startMonitoring()
        _ = try await firstPath(of: monitor)
        monitor.stopMonitoring()
        #expect(monitor.status == .reachableViaWiFi)

        // Subscribe before restarting: a sequence made after the restart could miss the new delivery
        // and wait for one that never comes.
        let deliveries = Lock(0)
        monitor.setReachabilityStatusChangeHandler { _ in deliveries.withLock { $0 += 1 } }
        let paths = monitor.paths()
        monitor.startMonitoring()
        defer { monitor.stopMonitoring() }
        let seen = try await firstPaths(2, of: paths)  // the current path, then the new evaluation
        #expect(seen.last?.status == .reachableViaWiFi)
        #expect(deliveries.withLock { $0 } == 1)
    }

    @Test func oneThreadServesAllMonitorsAndEndsWithTheLast() async throws {
        let hub = NetlinkHub()
        let configuration = NetlinkReachabilityMonitor.Configuration()
        let first = NetlinkReachabilityMonitor(
            target: .address(IPAddress("127.0.0.1")!),
            configuration: configuration,
            hub: hub
        )
        let second = NetlinkReachabilityMonitor(
            target: .address(IPAddress("::1")!),
            configuration: configuration,
            hub: hub
        )
        #expect(!hub.isRunning)
        first.startMonitoring()
        second.startMonitoring()
        #expect(hub.isRunning)
        #expect(try await firstPath(of: first).status == .reachableViaWiFi)
        #expect(try await firstPath(of: second).supportsIPv6)

        first.stopMonitoring()
        #expect(hub.isRunning)
        second.stopMonitoring()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while hub.isRunning && clock.now < deadline { await Task.yield() }
        #expect(!hub.isRunning)
    }
}
