import CourierReachability
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

/// A reachability monitor attached to a session reports its paths as session events.
@Suite struct SessionReachabilityEventTests {
    @Test func everyDeliveredPathBecomesAnEventUntilTheSessionEnds() async throws {
        let monitor = ManualReachabilityMonitor(initialPath: .unreachable)
        let session = SessionManager(transport: MockTransport())
        let events = session.events()
        session.observeReachability(of: monitor)
        monitor.startMonitoring()
        monitor.send(NetworkPath(status: .reachableViaWiFi, supportsIPv4: true))
        await monitor.waitForDeliveries()

        var statuses: [ReachabilityStatus] = []
        for await event in events where event.kind == .reachabilityChanged {
            statuses.append(try #require(event.networkPath?.status))
            if statuses.count == 2 { break }
        }
        #expect(statuses == [.notReachable, .reachableViaWiFi])
        #expect(SessionEvent.Kind.reachabilityChanged.notificationName == nil)

        await session.shutdown()
        let late = session.observeReachability(of: monitor)
        #expect(late.isCancelled, "a session that ended observes nothing")
        monitor.stopMonitoring()
    }
}
