import CourierHTTP
import CourierLocking
import CourierTesting
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@testable import CourierWebSocketEngine

/// A raw connection that counts the reads made of it.
final class CountingRawConnection: RawConnection {
    let inner: MockRawConnection
    private let count = Lock(0)

    init(_ inner: MockRawConnection) { self.inner = inner }

    var reads: Int { count.withLock { $0 } }

    func read() async throws -> [UInt8]? {
        count.withLock { $0 += 1 }
        return try await inner.read()
    }

    func write(_ bytes: [UInt8]) async throws { try await inner.write(bytes) }

    func close() async { await inner.close() }
}

@Suite struct WebSocketBackpressureTests {
    @Test func aSlowReaderStopsTheSocketReads() async throws {
        let messageCount = 40
        let steps: [MockRawConnection.Step] = (0..<messageCount).map {
            .bytes(ScriptedWebSocketServer.text("message \($0)"))
        }
        let raw = CountingRawConnection(MockRawConnection(steps: steps))
        var configuration = WebSocketConfiguration()
        configuration.readHighWaterMark = 4
        let socket = WebSocketEngineConnection(
            raw: raw,
            handshakeResponse: HTTPResponse(status: HTTPStatus(code: 101)),
            agreement: WebSocketHandshake.Agreement(),
            configuration: configuration,
            deflater: nil,
            received: []
        )
        // Nobody reads: the reader parks once 4 messages wait.
        try await Task.sleep(for: .milliseconds(200))
        let parkedReads = raw.reads
        #expect(parkedReads <= configuration.readHighWaterMark + 1, "\(parkedReads) reads")
        try await Task.sleep(for: .milliseconds(100))
        #expect(raw.reads == parkedReads)
        // Reading resumes the socket reads, and every message arrives in order.
        var iterator = socket.messages.makeAsyncIterator()
        for index in 0..<messageCount {
            #expect(try await iterator.next() == .text("message \(index)"))
        }
        #expect(raw.reads >= messageCount)
        raw.inner.finish()
        _ = await drain(socket.messages)
    }
}
