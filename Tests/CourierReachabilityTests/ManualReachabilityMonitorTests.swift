import CourierLocking
import CourierReachability
import CourierTesting
import Dispatch
import Testing

@Suite struct ManualReachabilityMonitorTests {
    @Test func startsUnknownAndDeliversWhatTheTestSendsInOrder() async {
        let monitor = ManualReachabilityMonitor()
        let seen = Lock<[String]>([])
        monitor.setReachabilityStatusChangeHandler { status in
            // The status property already holds the delivered status when the handler runs.
            seen.withLock { $0.append("handler \(status) property \(monitor.status)") }
        }
        #expect(monitor.status == .unknown)
        #expect(monitor.path == .unknown)

        monitor.startMonitoring()
        let paths = monitor.paths()
        let cellular = NetworkPath(
            status: .reachableViaWWAN,
            interface: NetworkInterface(index: 3, name: "wwan0", kind: .cellular),
            supportsIPv4: true
        )
        monitor.send(.notReachable)
        monitor.send(cellular)
        monitor.send(.reachableViaWiFi)
        await monitor.waitForDeliveries()

        #expect(monitor.status == .reachableViaWiFi)
        #expect(monitor.isReachable && monitor.isReachableViaWiFi && !monitor.isReachableViaWWAN)
        #expect(
            seen.withLock { $0 } == [
                "handler Not Reachable property Not Reachable",
                "handler Reachable via WWAN property Reachable via WWAN",
                "handler Reachable via WiFi property Reachable via WiFi",
            ]
        )
        var received: [NetworkPath] = []
        for await path in paths {
            received.append(path)
            if received.count == 3 { break }
        }
        #expect(received == [.unreachable, cellular, NetworkPath(status: .reachableViaWiFi)])
    }

    @Test func deliversTheInitialPathOnStartAndNothingWhileStopped() async {
        let monitor = ManualReachabilityMonitor(initialPath: NetworkPath(status: .reachableViaWiFi))
        monitor.send(.notReachable)
        await monitor.waitForDeliveries()
        #expect(monitor.status == .unknown)
        #expect(monitor.sentWhileStopped == [.unreachable])

        monitor.startMonitoring()
        await monitor.waitForDeliveries()
        #expect(monitor.status == .reachableViaWiFi)

        monitor.stopMonitoring()
        monitor.send(.notReachable)
        await monitor.waitForDeliveries()
        // Stopping keeps the last status.
        #expect(monitor.status == .reachableViaWiFi)
        #expect(monitor.startCount == 1)
        #expect(monitor.stopCount == 1)
        #expect(!monitor.isMonitoring)

        monitor.deliversWhileStopped = true
        monitor.send(.notReachable)
        await monitor.waitForDeliveries()
        #expect(monitor.status == .notReachable)
    }

    @Test func aNewSequenceStartsWithTheCurrentPath() async {
        let monitor = ManualReachabilityMonitor(initialPath: NetworkPath(status: .reachableViaWWAN))
        monitor.startMonitoring()
        await monitor.waitForDeliveries()
        var iterator = monitor.paths().makeAsyncIterator()
        #expect(await iterator.next()?.status == .reachableViaWWAN)
        monitor.send(.notReachable)
        #expect(await iterator.next()?.status == .notReachable)
    }

    @Test func deliversInOrderOnAConcurrentQueue() async {
        let monitor = ManualReachabilityMonitor(queue: DispatchQueue(label: "concurrent", attributes: .concurrent))
        let seen = Lock<[ReachabilityStatus]>([])
        monitor.setReachabilityStatusChangeHandler { status in seen.withLock { $0.append(status) } }
        monitor.startMonitoring()
        let statuses = (0..<200).map { $0 % 2 == 0 ? ReachabilityStatus.notReachable : .reachableViaWiFi }
        for status in statuses { monitor.send(status) }
        await monitor.waitForDeliveries()
        #expect(seen.withLock { $0 } == statuses)
    }
}
