import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTesting
import CourierTransport
import Dispatch
import Foundation
import Testing

@Suite struct SessionDataTaskTests {
    private let url = URL(string: "https://api.example.com/items")!

    @Test func aDataTaskCompletesOnTheCompletionQueueWithTheSerializedValue() async throws {
        // Given
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, json: #"{"id":7}"#)
        let queue = DispatchQueue(label: "test.completions")
        var configuration = SessionConfiguration()
        configuration.completionQueue = queue
        let session = SessionManager(transport: transport, configuration: configuration)

        // When
        let box = Lock<(DataResponse<JSONValue>, Bool)?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let task = session.dataTask(with: HTTPRequest(url: url), serializer: JSONResponseSerializer()) { response in
                box.withLock { $0 = (response, DispatchQueue.getSpecific(key: Self.queueKey) == "completions") }
                done.resume()
            }
            queue.setSpecific(key: Self.queueKey, value: "completions")
            #expect(task.state == .suspended)
            #expect(session.tasks == [task])
            task.resume()
        }

        // Then
        let (response, onQueue) = try #require(box.withLock { $0 })
        #expect(onQueue)
        #expect(response.error == nil)
        #expect(response.value == .object(["id": .int(7)]))
        #expect(response.metrics.count == 1)
        #expect(session.tasks.isEmpty)
    }

    private static let queueKey = DispatchSpecificKey<String>()

    /// A call through a session whose transport answers only after 30 s, once its request started.
    private func startSlowCall() async -> (MockTransport, SessionManager, Task<DataResponse<Data>, Never>) {
        let transport = MockTransport()
        var slow = MockTransport.Reply(status: 200)
        slow.delay = .seconds(30)
        transport.stub(url: url.absoluteString, reply: slow)
        let session = SessionManager(transport: transport)
        let request = HTTPRequest(url: url)
        let call = Task { await session.response(for: request, serializer: DataResponseSerializer()) }
        while transport.startedRequests.isEmpty { await Task.yield() }
        return (transport, session, call)
    }

    @Test func anObjectAndAnErrorArriveTogetherForAnUnacceptableStatus() async {
        // AFNetworking hands over the parsed JSON of a 422 together with the -1011 error.
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, status: 422, json: #"{"error":"name taken"}"#)
        let session = SessionManager(transport: transport)
        let response = await session.response(for: HTTPRequest(url: url), serializer: JSONResponseSerializer())
        #expect(response.value == .object(["error": .string("name taken")]))
        #expect(response.error?.kind == .serialization)
        #expect(response.error?.urlErrorCode == -1011)
        #expect(response.response?.status.code == 422)
    }

    @Test func aTransportFailureSkipsTheSerializerAndMapsToAFsCode() async {
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(error: TransportError(category: .timedOut, message: "slow", url: url))
        )
        let session = SessionManager(transport: transport)
        await #expect {
            try await session.data(for: HTTPRequest(url: url))
        } throws: { error in
            let error = error as? SessionError
            return error?.kind == .transport(.timedOut) && error?.urlErrorCode == -1001
        }
    }

    @Test func cancellingTheCallingTaskCancelsTheSessionTask() async throws {
        let (transport, session, call) = await startSlowCall()
        call.cancel()
        let response = await call.value
        #expect(response.error?.kind == .cancelled)
        #expect(response.error?.urlErrorCode == -999)
        #expect(transport.controlCalls.map(\.action) == [.cancel])
        #expect(session.tasks.isEmpty)
    }

    @Test func aTaskCancelledBeforeItStartsCompletesOnceWithoutSending() async {
        let transport = MockTransport()
        let session = SessionManager(transport: transport)
        let calls = Lock(0)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let task = session.dataTask(with: HTTPRequest(url: url)) { response in
                calls.withLock { $0 += 1 }
                #expect(response.error?.kind == .cancelled)
                done.resume()
            }
            task.cancel()
            task.resume()  // too late: nothing happens
            task.cancel()
        }
        #expect(calls.withLock { $0 } == 1)
        #expect(transport.startedRequests.isEmpty)
    }

    @Test func suspendAndResumeFollowAFsRulesAndReachTheTransfer() async throws {
        // Given: a reply held until the test releases it
        let (released, release) = AsyncStream<Void>.makeStream()
        let transport = MockTransport()
        transport.stub(
            matching: { _ in true },
            respond: { _ in
                for await _ in released { break }
                return MockTransport.Reply(body: Data("ok".utf8))
            }
        )
        let monitor = RecordingMonitor()
        let session = SessionManager(transport: transport, eventMonitors: [monitor])
        let done = CompletionSignal()
        let task = session.dataTask(with: HTTPRequest(url: url)) { _ in done.signal() }

        // When
        task.resume()
        task.resume()  // already running: no second event
        while transport.startedRequests.isEmpty { await Task.yield() }
        task.suspend()
        task.suspend()  // already suspended: no second event
        #expect(task.state == .suspended)
        task.resume()
        release.yield()
        await done.wait()

        // Then
        #expect(task.state == .completed)
        #expect(transport.controlCalls.map(\.action) == [.suspend, .resume])
        let kinds = await monitor.kinds(until: .taskCompleted)
        #expect(kinds.filter { $0 == .taskResumed }.count == 2)
        #expect(kinds.filter { $0 == .taskSuspended }.count == 1)
        #expect(SessionEvent.Kind.taskResumed.notificationName == "com.alamofire.networking.task.resume")
    }

    @Test func shutdownCancelsTasksInFlightAndLaterTasksFailAtOnce() async {
        let (transport, session, call) = await startSlowCall()

        await session.shutdown()
        await session.shutdown()  // idempotent

        #expect(await call.value.error?.kind == .cancelled)
        #expect(session.tasks.isEmpty)
        let late = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(late.error?.kind == .sessionInvalidated)
        #expect(transport.startedRequests.count == 1)
    }
}

/// Records the kinds of events a session reports.
final class RecordingMonitor: EventMonitor {
    private let recorded = Lock<[SessionEvent]>([])

    func session(_ session: any HTTPSession, didReceive event: SessionEvent) {
        recorded.withLock { $0.append(event) }
    }

    var events: [SessionEvent] { recorded.withLock { $0 } }

    /// The kinds seen, once one of `kind` has arrived (events are delivered asynchronously).
    func kinds(until kind: SessionEvent.Kind) async -> [SessionEvent.Kind] {
        while !recorded.withLock({ $0.contains { $0.kind == kind } }) { await Task.yield() }
        return recorded.withLock { $0.map(\.kind) }
    }
}

@Suite struct SessionBodySentTests {
    @Test func theBodySentEventFallsBackToTheRequestsContentLength() async throws {
        // AFNetworking's did-send-body hook gets Content-Length when the transport's total is
        // unknown; the task's own progress keeps the unknown total.
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(status: 204))
        let monitor = RecordingMonitor()
        let session = SessionManager(transport: transport, eventMonitors: [monitor])
        var request = HTTPRequest(
            method: .put,
            url: URL(string: "https://api.example.com/blob")!,
            body: HTTPBody(
                length: nil,
                producer: AsyncThrowingStream<Data, any Error> { continuation in
                    continuation.yield(Data("hello".utf8))
                    continuation.finish()
                }
            )
        )
        try request.headers.set(name: "Content-Length", value: "5")
        let task = session.uploadTask(with: request, body: request.body) { _ in }
        task.resume()
        _ = await monitor.kinds(until: .taskCompleted)
        let sent = monitor.events.filter { $0.kind == .bodySent }.compactMap(\.progress)
        #expect(sent.last == TransferProgress(completed: 5, total: 5))
        #expect(task.uploadProgress == TransferProgress(completed: 5, total: nil))
    }
}

@Suite struct SessionProgressSequenceTests {
    @Test func aTasksProgressSequenceFollowsTheTransferAndEndsWithTheTask() async throws {
        let transport = MockTransport()
        transport.stub(matching: { _ in true }, reply: .init(body: Data(count: 1_000), chunkSize: 250))
        let session = SessionManager(transport: transport)
        let task = session.dataTask(with: HTTPRequest(url: URL(string: "https://api.example.com/blob")!)) { _ in }
        let updates = task.progressUpdates(.download)

        task.resume()
        var seen: [TransferProgress] = []
        for await progress in updates { seen.append(progress) }

        // The loop ended because the task completed; every chunk was reported, in order.
        #expect(task.state == .completed)
        #expect(seen.map(\.completed) == [250, 500, 750, 1_000])
        #expect(seen.allSatisfy { $0.total == 1_000 })
        var afterwards = task.progressUpdates(.upload).makeAsyncIterator()
        #expect(await afterwards.next() == nil)
    }
}
