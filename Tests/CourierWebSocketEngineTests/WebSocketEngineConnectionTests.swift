import CourierHTTP
import CourierTesting
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@testable import CourierWebSocketEngine

@Suite(.timeLimit(.minutes(1))) struct WebSocketEngineConnectionTests {
    typealias Server = ScriptedWebSocketServer

    static var noCompression: WebSocketConfiguration {
        var configuration = WebSocketConfiguration()
        configuration.perMessageDeflate = nil
        return configuration
    }

    @Test func framesBehindTheHeadAreTheFirstMessages() async throws {
        let server = Server()
        let socket = try await server.open(initialFrames: Server.text("first") + Server.close(1000, "bye"))
        server.connection.finish()  // the server ends the TCP connection after the close (RFC 6455 §7.1.1)
        let (messages, error) = await drain(socket.messages)
        #expect(messages == [.text("first")])
        #expect(error == nil)
        #expect(socket.closeStatus == WebSocketClose(code: .normalClosure, reason: "bye"))
        // The server closed first: the client echoes its code, without a reason (RFC 6455 §5.5.1).
        #expect(server.sentCloseCodes == [1000])
    }

    @Test func sendsMaskedFramesWithAFreshKeyEach() async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression)
        try await socket.send(.text("hello"))
        try await socket.send(.binary([1, 2, 3]))
        let frames = server.clientFrames
        #expect(frames.map(\.opcode) == [1, 2])
        #expect(frames.map(\.payload) == [Array("hello".utf8), [1, 2, 3]])
        #expect(frames.allSatisfy { $0.isFinal && !$0.isCompressed })
        #expect(frames[0].maskingKey != frames[1].maskingKey)
        server.connection.finish()
        _ = await drain(socket.messages)
    }

    @Test func maskedWriterMatchesTheFrameEncoder() {
        for count in [0, 1, 7, 8, 9, 125, 126, 127, 65_535, 65_536, 100_003] {
            let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let frame = WebSocketFrame(
                isFinal: count % 2 == 0,
                isCompressed: count % 3 == 0,
                opcode: .binary,
                payload: payload
            )
            #expect(
                MaskedFrameWriter.bytes(for: frame, maskingKey: 0xA1B2_C3D4)
                    == WebSocketFrameEncoder.encode(frame, maskingKey: 0xA1B2_C3D4),
                "payload of \(count) bytes"
            )
        }
    }

    @Test func largeMessagesGoOutInFragments() async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression)
        let payload = (0..<(WebSocketEngineConnection.fragmentSize * 2 + 10)).map { UInt8(truncatingIfNeeded: $0) }
        try await socket.send(.binary(payload))
        let frames = server.clientFrames
        #expect(frames.map(\.opcode) == [2, 0, 0])
        #expect(frames.map(\.isFinal) == [false, false, true])
        #expect(frames.flatMap(\.payload) == payload)
        server.connection.finish()
        _ = await drain(socket.messages)
    }

    @Test func assemblesFragmentsAndAnswersPingsBetweenThem() async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression)
        server.connection.deliver(Server.frame(.text, Array("Hello, ".utf8), isFinal: false))
        server.connection.deliver(Server.frame(.ping, Array("p1".utf8)))
        server.connection.deliver(Server.frame(.continuation, Array("Web".utf8), isFinal: false))
        server.connection.deliver(Server.frame(.ping, Array("p2".utf8)))
        server.connection.deliver(Server.frame(.continuation, Array("Socket".utf8)))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("Hello, WebSocket"))
        let pongs = server.clientFrames.filter { $0.opcode == 0xA }.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(pongs == ["p1", "p2"])
        server.connection.deliver(Server.close(1000))
        server.connection.finish()
        #expect(try await iterator.next() == nil)
    }

    @Test(arguments: [
        (Server.frame(.text, [0x61, 0xFF]), UInt16(1007)),
        ([0x81, 0x85, 1, 2, 3, 4, 0x69, 0x67, 0x6F, 0x68, 0x6E], UInt16(1002)),  // masked by the server
        ([0xC1, 0x01, 0x61], UInt16(1002)),  // RSV1 without an extension
        (Server.frame(.continuation, [0x61]), UInt16(1002)),
        (Server.frame(.ping, [UInt8](repeating: 0, count: 126)), UInt16(1002)),
        (Server.frame(.close, [0x03, 0xED]), UInt16(1002)),  // close code 1005 on the wire
        ([0x83, 0x01, 0x78], UInt16(1002)),  // reserved opcode 3
    ])
    func violationsCloseWithTheCodeRFC6455Names(bytes: [UInt8], code: UInt16) async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression, initialFrames: bytes)
        let (messages, error) = await drain(socket.messages)
        #expect(messages.isEmpty)
        #expect(error?.closeCode?.rawValue == code)
        #expect(server.sentCloseCodes == [code])
        #expect(server.connection.isClosed)
        // The connection failed: sends are refused with the same error.
        let sendError = await webSocketError { try await socket.send(.text("late")) }
        #expect(sendError?.closeCode?.rawValue == code)
    }

    @Test func messageOverTheLimitClosesWith1009() async throws {
        var configuration = Self.noCompression
        configuration.maximumMessageSize = 10
        let server = Server()
        let socket = try await server.open(configuration: configuration)
        server.connection.deliver(Server.frame(.binary, [UInt8](repeating: 1, count: 6), isFinal: false))
        server.connection.deliver(Server.frame(.continuation, [UInt8](repeating: 1, count: 6)))
        let (_, error) = await drain(socket.messages)
        guard case .messageTooBig(let limit) = error else {
            Issue.record("not messageTooBig: \(String(describing: error))")
            return
        }
        #expect(limit == 10)
        #expect(server.sentCloseCodes == [1009])
    }

    @Test func frameOverTheLimitClosesWith1009BeforeItsPayload() async throws {
        var configuration = Self.noCompression
        configuration.maximumFrameSize = 1000
        let server = Server()
        let socket = try await server.open(configuration: configuration)
        server.connection.deliver([0x82, 127, 0, 0, 0, 0, 0x40, 0, 0, 0])  // announces 1 GiB
        let (_, error) = await drain(socket.messages)
        guard case .frameTooBig(let length, let limit) = error else {
            Issue.record("not frameTooBig: \(String(describing: error))")
            return
        }
        #expect(length == 1 << 30)
        #expect(limit == 1000)
        #expect(server.sentCloseCodes == [1009])
    }

    @Test func clientCloseWaitsForTheServersClose() async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression)
        let closing = Task { await socket.close(code: .normalClosure, reason: "done") }
        try await Server.waitUntil { !server.sentCloseCodes.isEmpty }
        #expect(socket.closeStatus == nil)
        let sent = try #require(server.clientFrames.last)
        #expect(sent.payload == [0x03, 0xE8] + Array("done".utf8))
        // Sends are refused once the close is out.
        let sendError = await webSocketError { try await socket.send(.text("late")) }
        guard case .transport(let transportError) = sendError else {
            Issue.record("not refused: \(String(describing: sendError))")
            return
        }
        #expect(transportError.category == .cancelled)
        server.connection.deliver(Server.close(1000))
        server.connection.finish()
        await closing.value
        #expect(socket.closeStatus == WebSocketClose(code: .normalClosure))
        #expect(server.sentCloseCodes == [1000])  // no echo of the server's answer
        let (_, error) = await drain(socket.messages)
        #expect(error == nil)
    }

    // Only the close timeout can end this close (the server never answers); the time limit stands
    // in for a hang, with no wall-clock bound on a busy pool.
    @Test(.timeLimit(.minutes(1))) func closeTimesOutWhenTheServerNeverAnswers() async throws {
        var configuration = Self.noCompression
        configuration.closeTimeout = .milliseconds(100)
        let server = Server()
        let socket = try await server.open(configuration: configuration)
        await socket.close()
        #expect(socket.closeStatus == WebSocketClose(code: .abnormalClosure))
        #expect(server.connection.isClosed)
        let (_, error) = await drain(socket.messages)
        guard case .closeTimedOut = error else {
            Issue.record("not closeTimedOut: \(String(describing: error))")
            return
        }
    }

    @Test func sendAfterTheServersCloseSaysSo() async throws {
        let server = Server()
        let socket = try await server.open(
            configuration: Self.noCompression,
            initialFrames: Server.close(4001, "later")
        )
        server.connection.finish()  // the server ends the TCP connection after the close (RFC 6455 §7.1.1)
        let (_, error) = await drain(socket.messages)
        #expect(error == nil)
        #expect(socket.closeStatus == WebSocketClose(code: WebSocketCloseCode(rawValue: 4001), reason: "later"))
        let sendError = await webSocketError { try await socket.send(.text("late")) }
        guard case .closedByServer(let code, let reason) = sendError else {
            Issue.record("not closedByServer: \(String(describing: sendError))")
            return
        }
        #expect(code.rawValue == 4001)
        #expect(reason == "later")
    }

    @Test func endWithoutACloseIsAbnormal() async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression, initialFrames: Server.text("x"))
        server.connection.finish()
        let (messages, error) = await drain(socket.messages)
        #expect(messages == [.text("x")])
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(transportError.category == .connectionLost)
        #expect(socket.closeStatus == WebSocketClose(code: .abnormalClosure))
    }

    @Test func pingReturnsWhenItsPongArrives() async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression)
        let pinging = Task { try await socket.ping() }
        try await Server.waitUntil { server.clientFrames.contains { $0.opcode == 0x9 } }
        let ping = try #require(server.clientFrames.first { $0.opcode == 0x9 })
        #expect(ping.payload.count == 8)
        server.connection.deliver(Server.frame(.pong, [9, 9]))  // unsolicited: ignored
        server.connection.deliver(Server.frame(.pong, ping.payload))
        let roundTrip = try await pinging.value
        #expect(roundTrip > .zero)
        server.connection.finish()
        _ = await drain(socket.messages)
    }

    @Test func keepAliveFailsAConnectionWhosePongsStop() async throws {
        var configuration = Self.noCompression
        configuration.pingInterval = .milliseconds(50)
        let server = Server()
        let socket = try await server.open(configuration: configuration)
        let (_, error) = await drain(socket.messages)
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(transportError.category == .timedOut)
        #expect(server.clientFrames.contains { $0.opcode == 0x9 })
        #expect(server.connection.isClosed)
    }

    @Test func cancellingTheReaderClosesWith1001() async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression)
        let reading = Task { await drain(socket.messages) }
        try await Task.sleep(for: .milliseconds(20))
        reading.cancel()
        _ = await reading.value
        try await Server.waitUntil { !server.sentCloseCodes.isEmpty }
        #expect(server.sentCloseCodes == [1001])
        server.connection.deliver(Server.close(1001))
        server.connection.finish()
    }

    @Test func transportFailureFailsTheMessages() async throws {
        let server = Server()
        let socket = try await server.open(configuration: Self.noCompression)
        server.connection.finish(throwing: TransportError(category: .connectionLost, message: "reset"))
        let (_, error) = await drain(socket.messages)
        guard case .transport(let transportError) = error else {
            Issue.record("not a transport error: \(String(describing: error))")
            return
        }
        #expect(transportError.message == "reset")
    }
}
