import CourierCurl
import CourierHTTP
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTransport
import Foundation
import Testing

/// Server-Sent Events through the session over libcurl, against the fault server's `/sse`, which
/// drops the connection every few events and resumes after `Last-Event-ID`.
@Suite struct EventSourceOverCurlTests {
    static var fault: URL? { CurlTestServers.url("FAULT_HTTP_URL") }

    @Test(.enabled(if: fault != nil, "FAULT_HTTP_URL not set"))
    func readsEveryEventAcrossDroppedConnectionsWithLastEventIDAndStopsAtA204() async throws {
        let fault = try #require(Self.fault)
        let id = UUID().uuidString
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)
        var events: [ServerSentEvent] = []
        for try await event in session.eventSource(
            for: HTTPRequest(url: fault.adding("/sse?id=\(id)&events=5&per_connection=2&retry=20"))
        ) {
            events.append(event)
        }
        #expect(events.map(\.id) == ["1", "2", "3", "4", "5"])
        #expect(events.allSatisfy { $0.type == "tick" })
        #expect(events.first?.data == "event 1\nline two")
        #expect(events.first?.retry == .milliseconds(20))

        let log = try await session.data(for: HTTPRequest(url: fault.adding("/sse-log?id=\(id)")))
        #expect(String(decoding: log.data ?? Data(), as: UTF8.self) == "-\n2\n4\n5\n")
        await session.shutdown()
        await transport.shutdown()
    }

    @Test(.enabled(if: fault != nil, "FAULT_HTTP_URL not set"))
    func aNonStreamResponseFailsWithoutReconnectingAndTheLimitEndsTheStream() async throws {
        let fault = try #require(Self.fault)
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)

        var failed: SessionError?
        do {
            for try await _ in session.eventSource(for: HTTPRequest(url: fault.adding("/sse?status=500"))) {}
        } catch {
            failed = error
        }
        #expect(failed?.kind == .eventStream(.notAnEventStream))
        #expect(failed?.response?.status.code == 500)

        var configuration = EventSource.Configuration()
        configuration.maximumReconnections = 1
        configuration.reconnectionDelay = .milliseconds(10)
        var count = 0
        let url = fault.adding("/sse?id=\(UUID().uuidString)&events=10&per_connection=1")
        for try await _ in session.eventSource(for: HTTPRequest(url: url), configuration: configuration) { count += 1 }
        #expect(count == 2, "one event per connection, one reconnection")
        await session.shutdown()
        await transport.shutdown()
    }

    @Test(.enabled(if: fault != nil, "FAULT_HTTP_URL not set"))
    func cancellingTheReaderStopsTheStream() async throws {
        let fault = try #require(Self.fault)
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)
        let url = fault.adding("/sse?id=\(UUID().uuidString)&events=1000&per_connection=1&retry=10000")
        let firstEvent = CompletionSignal()
        let reader = Task { () throws(SessionError) -> Int in
            var count = 0
            for try await _ in session.eventSource(for: HTTPRequest(url: url)) {
                count += 1
                firstEvent.signal()
            }
            return count
        }
        // The first connection delivers one event and drops; the reader then waits 10 s to reconnect.
        await firstEvent.wait()
        let cancelled = ContinuousClock.now
        reader.cancel()
        await #expect(throws: SessionError.self) { try await reader.value }
        #expect(ContinuousClock.now - cancelled < .seconds(5), "the reconnection wait ends with the cancellation")
        await session.shutdown()
        await transport.shutdown()
    }
}
