import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// The session's default limit on a body it collects in memory, 64 MiB, at its edge, and the tasks
/// it leaves alone (downloads and streamed responses, whose memory does not grow with the body).
@Suite struct InMemoryBodyLimitTests {
    private let url = URL(string: "https://api.example.com/body")!
    private let limit = SessionConfiguration.defaultMaximumInMemoryResponseBodySize

    private func session(serving body: Data, configuration: SessionConfiguration = SessionConfiguration())
        -> (SessionManager, MockTransport)
    {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(body: body, chunkSize: 1 << 20))
        return (SessionManager(transport: transport, configuration: configuration), transport)
    }

    @Test func aBodyOfExactlyTheDefaultLimitIsCollected() async {
        #expect(limit == 64 << 20)
        #expect(SessionConfiguration().maximumInMemoryResponseBodySize == limit)
        let (session, transport) = session(serving: Data(count: Int(limit)))
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error == nil)
        #expect(response.value?.count == Int(limit))
        #expect(transport.requests.first?.request.maximumResponseBodySize == limit)
    }

    @Test func oneByteMoreIsALimitExceeded() async {
        let (session, _) = session(serving: Data(count: Int(limit) + 1))
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.value == nil)
        #expect(response.error?.kind == .transport(.limitExceeded))
        #expect(response.error?.transportError?.message == "the decoded response body is larger than 67108864 bytes")
    }

    @Test func aConfiguredLimitAppliesToDataTasks() async {
        var configuration = SessionConfiguration()
        configuration.maximumInMemoryResponseBodySize = 10
        let (session, _) = session(serving: Data(count: 11), configuration: configuration)
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error?.kind == .transport(.limitExceeded))
    }

    @Test func aRequestsOwnLimitWins() async {
        var configuration = SessionConfiguration()
        configuration.maximumInMemoryResponseBodySize = 10
        let (session, transport) = session(serving: Data(count: 11), configuration: configuration)
        var request = HTTPRequest(url: url)
        request.maximumResponseBodySize = 11
        let response = await session.response(for: request, serializer: DataResponseSerializer())
        #expect(response.error == nil)
        #expect(response.value?.count == 11)
        #expect(transport.requests.first?.request.maximumResponseBodySize == 11)
    }

    @Test func noLimitWhenTheSessionHasNone() async {
        var configuration = SessionConfiguration()
        configuration.maximumInMemoryResponseBodySize = nil
        let (session, transport) = session(serving: Data(count: 11), configuration: configuration)
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error == nil)
        #expect(transport.requests.first?.request.maximumResponseBodySize == nil)
    }

    @Test func aDownloadIsNotLimited() async throws {
        var configuration = SessionConfiguration()
        configuration.maximumInMemoryResponseBodySize = 10
        let (session, transport) = session(serving: Data(count: 11), configuration: configuration)
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID())-limit").path
        defer { try? FileManager.default.removeItem(atPath: target) }
        let response = await session.download(for: HTTPRequest(url: url)) { _, _ in DownloadDestination(path: target) }
        #expect(response.error == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).count == 11)
        #expect(transport.requests.first?.request.maximumResponseBodySize == nil)
    }

    @Test func aStreamedResponseIsNotLimited() async throws {
        var configuration = SessionConfiguration()
        configuration.maximumInMemoryResponseBodySize = 10
        let (session, transport) = session(serving: Data(count: 11), configuration: configuration)
        let stream = try await session.streamingResponse(for: HTTPRequest(url: url))
        var received = 0
        for try await chunk in stream.body { received += chunk.count }
        #expect(received == 11)
        #expect(transport.requests.first?.request.maximumResponseBodySize == nil)
        await session.shutdown()
    }
}
