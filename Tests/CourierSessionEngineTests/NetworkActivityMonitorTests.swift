import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

/// The activity tracker fed by a session's task events.
@Suite struct NetworkActivityMonitorTests {
    @Test func aTaskCountsFromItsResumeUntilItIsSuspendedOrCompletes() async throws {
        let url = URL(string: "https://api.test/slow")!
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [.response(HTTPResponse(status: .ok)), .pause(.seconds(30))])
        )
        let tracker = NetworkActivityTracker { _ in }
        let recorder = RecordingEventMonitor()
        // Monitors hear each event in order: when the recorder has it, the activity monitor has too.
        let session = SessionManager(
            transport: transport,
            eventMonitors: [NetworkActivityMonitor(tracker: tracker), recorder]
        )
        let task = session.dataTask(with: HTTPRequest(url: url)) { _ in }
        let never = session.dataTask(with: HTTPRequest(url: url)) { _ in }
        task.resume()
        _ = await recorder.first(.taskResumed)
        #expect(tracker.activityCount == 1)
        task.suspend()
        _ = await recorder.first(.taskSuspended)
        #expect(tracker.activityCount == 0)
        task.resume()
        never.cancel()  // completes without ever running: it must not count down another task
        await session.invalidate(cancelingTasks: true)
        #expect(tracker.activityCount == 0)
        #expect(recorder.events.filter { $0.kind == .taskCompleted }.count == 2)
    }
}
