import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// A cancel that lands once the transfer's terminal `.completed` event was produced: the task keeps
/// its value, as a `URLSessionTask` whose completion already happened ignores `cancel()`. A cancel
/// before that still ends the task at once as cancelled.
@Suite struct SessionLateCancelTests {
    private let url = URL(string: "https://files.example.com/late.bin")!

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID())-\(name)").path
    }

    /// Cancels the task from the response disposition, where the reader stands at the head; with
    /// `heldBack`, once the transfer's body and `.completed` wait in the reader's buffer.
    private func cancellingAtTheHead(after heldBack: HeldBackTransport? = nil) -> SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.responseDisposition = { task, _ in
            while heldBack?.releasedEverything == false { try? await Task.sleep(for: .milliseconds(1)) }
            task.cancel()
            return .allow
        }
        return configuration
    }

    @Test func aDownloadWhoseCompletionWasProducedBeforeTheCancelEndsWithItsFile() async throws {
        // Given: a download whose every event, to `.completed`, is produced before the task reads one
        let mock = MockTransport()
        let body = Data("0123456789".utf8)
        mock.stub(
            url: url.absoluteString,
            reply: .init(status: 200, headers: ["ETag": "\"v1\""], body: body, chunkSize: 4)
        )
        let transport = HeldBackTransport(mock)
        let session = SessionManager(transport: transport, configuration: cancellingAtTheHead(after: transport))
        let partial = temporaryPath("late.part")
        let target = temporaryPath("late.bin")
        defer { for path in [partial, target] { try? FileManager.default.removeItem(atPath: path) } }

        // When: the task is cancelled as it reads the head
        let response = await session.download(
            for: HTTPRequest(url: url),
            options: DownloadOptions(partialFilePath: partial)
        ) { _, _ in DownloadDestination(path: target) }

        // Then: the whole file is delivered, with no error and no resume data past its end
        #expect(response.error == nil)
        #expect(response.resumeData == nil)
        #expect(response.filePath == target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == body)
        #expect(mock.requests.count == 1)
    }

    @Test func aDataTaskWhoseCompletionWasProducedBeforeTheCancelEndsWithItsBody() async throws {
        let mock = MockTransport()
        mock.stub(url: url.absoluteString, reply: .init(status: 200, body: Data("whole".utf8), chunkSize: 2))
        let transport = HeldBackTransport(mock)
        let session = SessionManager(transport: transport, configuration: cancellingAtTheHead(after: transport))
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error == nil)
        #expect(response.value == Data("whole".utf8))
        #expect(response.response?.status.code == 200)
    }

    @Test func aRefusedResponseFinishedBeforeTheCancelIsNotRetried() async throws {
        // Given: a 503 that a retry policy would retry, finished before the cancel was seen
        let mock = MockTransport()
        mock.stub(url: url.absoluteString, reply: .init(status: 503, body: Data("busy".utf8)))
        let transport = HeldBackTransport(mock)
        let session = SessionManager(
            transport: transport,
            configuration: cancellingAtTheHead(after: transport),
            interceptor: RetryPolicy()
        )
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        // Then: the response's own outcome, and no second attempt
        #expect(response.error?.kind == .serialization)
        #expect(response.response?.status.code == 503)
        #expect(response.retryCount == 0)
        #expect(mock.requests.count == 1)
    }

    @Test func aCancelBeforeTheCompletionStillEndsTheDownloadAtOnce() async throws {
        // Given: a download whose last bytes are still on the way when the cancel lands
        let mock = MockTransport()
        let head = HTTPResponse(status: .ok, headers: try HTTPHeaders(["ETag": "\"v1\"", "Content-Length": "10"]))
        mock.stub(
            url: url.absoluteString,
            reply: .init(steps: [.response(head), .body(Data("01234".utf8)), .pause(.seconds(60))])
        )
        let session = SessionManager(transport: mock, configuration: cancellingAtTheHead())
        let partial = temporaryPath("late.part")
        let target = temporaryPath("late.bin")
        defer { for path in [partial, target] { try? FileManager.default.removeItem(atPath: path) } }

        // When: the task is cancelled at the head
        let started = ContinuousClock.now
        let response = await session.download(
            for: HTTPRequest(url: url),
            options: DownloadOptions(partialFilePath: partial)
        ) { _, _ in DownloadDestination(path: target) }

        // Then: it ends as cancelled, long before the reply would have finished
        #expect(response.error?.kind == .cancelled)
        #expect(response.filePath == nil)
        #expect(started.duration(to: .now) < .seconds(30))
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}

/// Plays a MockTransport transfer to its end before handing any of its events on, so the reader
/// finds the whole transfer, `.completed` included, already in its buffer.
private final class HeldBackTransport: HTTPTransport {
    private let inner: MockTransport
    private let released = Lock(false)

    /// Whether the transfer's events, to its terminal one, were all handed on.
    var releasedEverything: Bool { released.withLock { $0 } }

    init(_ inner: MockTransport) { self.inner = inner }

    func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
        let transfer = inner.startTransfer(request, options: options)
        let (events, source) = TransferEvents.makeEvents(highWaterMark: 1 << 24, lowWaterMark: 1 << 20)
        let playing = Task {
            var held: [TransferEvent] = []
            for await event in transfer.events { held.append(event) }
            for event in held { source.yield(event) }
            self.released.withLock { $0 = true }
        }
        return HTTPTransfer(request: request, events: events, controller: Ended(playing: playing))
    }

    /// The transfer ends on its own; a cancel after it was played changes nothing.
    private struct Ended: TransferControlling {
        let playing: Task<Void, Never>
        func cancel() {}
        func suspend() {}
        func resume() {}
    }
}
