import CourierHTTP
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// The scripted raw connection and `MockTransport`'s stubs for it.
@Suite struct MockRawConnectionTests {
    static func readAll(_ connection: any RawConnection) async throws -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        while let bytes = try await connection.read() { chunks.append(bytes) }
        return chunks
    }

    @Test func deliversTheBytesInTheGivenChunksThenTheEnd() async throws {
        let connection = MockRawConnection(delivering: Array("hello".utf8), chunkSize: 2)
        #expect(try await Self.readAll(connection) == [Array("he".utf8), Array("ll".utf8), Array("o".utf8)])
        #expect(try await connection.read() == nil)
    }

    @Test func deliversAScriptedFailureAfterTheBytes() async throws {
        let failure = TransportError(category: .connectionLost, message: "reset")
        let connection = MockRawConnection(steps: [.bytes([1, 2]), .bytes([]), .failure(failure), .bytes([3])])
        #expect(try await connection.read() == [1, 2])
        for _ in 0..<2 {
            do {
                _ = try await connection.read()
                Issue.record("no failure")
            } catch let error as TransportError {
                #expect(error.category == .connectionLost)
                #expect(error.message == "reset")
            }
        }
    }

    @Test func aReadWaitsForBytesDeliveredLater() async throws {
        let connection = MockRawConnection()
        let reader = Task { try await Self.readAll(connection) }
        try await Task.sleep(for: .milliseconds(20))
        connection.deliver([7])
        connection.deliver([8, 9])
        connection.finish()
        #expect(try await reader.value == [[7], [8, 9]])
    }

    @Test func recordsWritesAndFailsEverythingAfterClose() async throws {
        let connection = MockRawConnection(delivering: [], ending: nil)
        try await connection.write([1, 2])
        try await connection.write([3])
        #expect(connection.writes == [[1, 2], [3]])
        #expect(connection.written == [1, 2, 3])
        let reader = Task { try await connection.read() }
        try await Task.sleep(for: .milliseconds(20))
        await connection.close()
        await connection.close()
        #expect(connection.closeCount == 2)
        await #expect(throws: TransportError.self) { _ = try await reader.value }
        do {
            try await connection.write([4])
            Issue.record("a write after close succeeded")
        } catch let error as TransportError {
            #expect(error.category == .cancelled)
        }
        #expect(connection.written == [1, 2, 3])
    }

    @Test func failsWritesWhenToldTo() async throws {
        let connection = MockRawConnection()
        connection.failWrites(with: TransportError(category: .connectionLost, message: "broken pipe"))
        do {
            try await connection.write([1])
            Issue.record("the write succeeded")
        } catch let error as TransportError {
            #expect(error.message == "broken pipe")
        }
        #expect(connection.writes.isEmpty)
    }

    @Test func theTransportHandsOutTheStubbedConnectionOrFailure() async throws {
        let transport = MockTransport()
        let connection = MockRawConnection(delivering: [42])
        transport.stubRawConnection(url: "http://127.0.0.1/chat", connection, times: 1)
        transport.stubRawConnection(
            url: "https://127.0.0.1/chat",
            failure: TransportError(category: .serverTrustFailed, message: "pin")
        )
        let url = try #require(URL(string: "http://127.0.0.1/chat"))
        let opened = try await transport.openRawConnection(to: HTTPRequest(url: url), options: RawConnectionOptions())
        #expect(try await opened.read() == [42])
        for (address, category) in [
            ("https://127.0.0.1/chat", TransportError.Category.serverTrustFailed),
            ("http://127.0.0.1/chat", .other),  // the stub was for one open only
        ] {
            do {
                _ = try await transport.openRawConnection(
                    to: HTTPRequest(url: try #require(URL(string: address))),
                    options: RawConnectionOptions()
                )
                Issue.record("\(address) opened")
            } catch let error as TransportError {
                #expect(error.category == category)
            }
        }
        #expect(
            transport.rawConnectionRequests.map(\.url.absoluteString)
                == ["http://127.0.0.1/chat", "https://127.0.0.1/chat", "http://127.0.0.1/chat"]
        )
    }

    @Test func theUnimplementedTransportRecordsARawConnectionAttempt() async throws {
        let transport = UnimplementedTransport()
        let request = HTTPRequest(url: try #require(URL(string: "http://127.0.0.1/chat")))
        await #expect(throws: TransportError.self) {
            _ = try await transport.openRawConnection(to: request, options: RawConnectionOptions())
        }
        #expect(transport.attempts.map(\.url) == [request.url])
    }
}
