import CourierHTTP
import CourierTesting
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@testable import CourierWebSocketEngine

/// permessage-deflate (RFC 7692) over the scripted server, with real zlib on both sides.
@Suite(.timeLimit(.minutes(1))) struct WebSocketCompressionTests {
    typealias Server = ScriptedWebSocketServer

    /// Inflates what the client sent, as a server would: the tail put back, the window kept.
    static func inflate(_ payloads: [[UInt8]]) throws -> [[UInt8]] {
        let inflater = try MessageInflater()
        return try payloads.map { payload in
            inflater.feed(payload + [0x00, 0x00, 0xFF, 0xFF])
            var output: [UInt8] = []
            while true {
                let piece = try inflater.read(maximumCount: 1 << 16)
                if piece.isEmpty { break }
                output += piece
            }
            return output
        }
    }

    @Test func sentMessagesAreCompressedWithContextTakeover() async throws {
        let server = Server()
        let socket = try await server.open(extraFields: ["Sec-WebSocket-Extensions: permessage-deflate"])
        #expect(socket.agreement.deflate == WebSocketDeflateParameters())
        let text = String(repeating: "compress me, please. ", count: 50)
        try await socket.send(.text(text))
        try await socket.send(.text(text))
        try await socket.send(.binary([]))
        let frames = server.clientFrames
        #expect(frames.map(\.isCompressed) == [true, true, true])
        #expect(frames[0].payload.count < text.utf8.count / 4)
        // The second copy refers back to the first through the kept window.
        #expect(frames[1].payload.count < frames[0].payload.count)
        #expect(frames.allSatisfy { !$0.payload.suffix(4).elementsEqual([0, 0, 0xFF, 0xFF]) })
        let inflated = try Self.inflate(frames.map(\.payload))
        #expect(inflated == [Array(text.utf8), Array(text.utf8), []])
        server.connection.finish()
        _ = await drain(socket.messages)
    }

    @Test func clientNoContextTakeoverCompressesEachMessageAlone() async throws {
        let server = Server()
        let socket = try await server.open(
            extraFields: ["Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover"]
        )
        let text = String(repeating: "again and again ", count: 40)
        try await socket.send(.text(text))
        try await socket.send(.text(text))
        let frames = server.clientFrames
        #expect(frames[0].payload == frames[1].payload)
        // Each inflates on a fresh window.
        #expect(try Self.inflate([frames[1].payload]) == [Array(text.utf8)])
        server.connection.finish()
        _ = await drain(socket.messages)
    }

    @Test(arguments: [8, 9, 12, 15])
    func agreedClientWindowBitsCompress(bits: Int) async throws {
        let deflater = try MessageDeflater(parameters: WebSocketDeflateParameters(clientMaxWindowBits: bits))
        let payload = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 % 251) }
        let compressed = try deflater.compress(payload)
        #expect(try Self.inflate([compressed]) == [payload])
    }

    @Test func receivedCompressedMessagesAreInflated() async throws {
        let serverSide = try MessageDeflater(parameters: WebSocketDeflateParameters())
        let first = try serverSide.compress(Array("hello hello hello".utf8))
        let second = try serverSide.compress(Array("hello hello hello".utf8))  // uses the window
        let fragmented = try serverSide.compress(Array("fragmented €".utf8))
        let server = Server()
        let socket = try await server.open(
            extraFields: ["Sec-WebSocket-Extensions: permessage-deflate"],
            initialFrames: Server.frame(.text, first, isCompressed: true)
                + Server.frame(.text, second, isCompressed: true)
                + Server.frame(.text, Array(fragmented.prefix(3)), isFinal: false, isCompressed: true)
                + Server.frame(.continuation, Array(fragmented.dropFirst(3)))
                + Server.close(1000)
        )
        server.connection.finish()
        let (messages, error) = await drain(socket.messages)
        #expect(error == nil)
        #expect(messages == [.text("hello hello hello"), .text("hello hello hello"), .text("fragmented €")])
    }

    @Test func decompressedSizeCountsAgainstTheLimit() async throws {
        let serverSide = try MessageDeflater(parameters: WebSocketDeflateParameters())
        let bomb = try serverSide.compress([UInt8](repeating: 0, count: 1 << 20))
        #expect(bomb.count < 2_000)
        var configuration = WebSocketConfiguration()
        configuration.maximumMessageSize = 64 << 10
        let server = Server()
        let socket = try await server.open(
            configuration: configuration,
            extraFields: ["Sec-WebSocket-Extensions: permessage-deflate"],
            initialFrames: Server.frame(.binary, bomb, isCompressed: true)
        )
        let (_, error) = await drain(socket.messages)
        guard case .messageTooBig(let limit) = error else {
            Issue.record("not messageTooBig: \(String(describing: error))")
            return
        }
        #expect(limit == 64 << 10)
        #expect(server.sentCloseCodes == [1009])
    }

    @Test func corruptCompressedDataClosesWith1007() async throws {
        let server = Server()
        let socket = try await server.open(
            extraFields: ["Sec-WebSocket-Extensions: permessage-deflate"],
            initialFrames: Server.frame(.binary, [0xFF, 0xFF, 0xFF, 0xFF], isCompressed: true)
        )
        let (_, error) = await drain(socket.messages)
        #expect(error?.closeCode == .invalidFramePayloadData)
        #expect(server.sentCloseCodes == [1007])
    }
}
