import CourierWebSocket
import Testing

@Suite struct WebSocketFrameEncoderTests {
    // RFC 6455 §5.7: "A single-frame masked text message".
    @Test func writesTheMaskedHelloExample() {
        let bytes = WebSocketFrameEncoder.encode(
            WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)),
            maskingKey: 0x37FA_213D
        )
        #expect(bytes == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    // RFC 6455 §5.7: the masked Pong answering the ping "Hello".
    @Test func writesTheMaskedPongExample() {
        let bytes = WebSocketFrameEncoder.encode(.pong(Array("Hello".utf8)), maskingKey: 0x37FA_213D)
        #expect(bytes == [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test(arguments: [0, 1, 125, 126, 65_535, 65_536, 70_000])
    func usesTheShortestLengthForm(count: Int) throws {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
        let bytes = WebSocketFrameEncoder.encode(
            WebSocketFrame(opcode: .binary, payload: payload),
            maskingKey: 0xDEAD_BEEF
        )
        let decoded = try #require(decodeClientFrame(bytes))
        #expect(decoded.masked)
        #expect(decoded.key == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(decoded.payload == payload)
        let expectedHeader = count < 126 ? 2 : count <= 65_535 ? 4 : 10
        #expect(bytes.count == expectedHeader + 4 + count)
        #expect(bytes[1] & 0x7F == (count < 126 ? UInt8(count) : count <= 65_535 ? 126 : 127))
    }

    @Test func setsFinAndRSV1() throws {
        let first = WebSocketFrameEncoder.encode(
            WebSocketFrame(isFinal: false, isCompressed: true, opcode: .text, payload: [1]),
            maskingKey: 0
        )
        #expect(first[0] == 0x41)
        let last = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .continuation, payload: []), maskingKey: 0)
        #expect(last == [0x80, 0x80, 0, 0, 0, 0])
    }

    @Test func appendsToABuffer() {
        var buffer: [UInt8] = [0xFF]
        WebSocketFrameEncoder.encode(.ping(), maskingKey: 1, into: &buffer)
        #expect(buffer == [0xFF, 0x89, 0x80, 0, 0, 0, 1])
    }

    @Test func fragmentsALongMessage() {
        let frames = WebSocketFrameEncoder.fragments(of: .text("Hello, world"), maximumFragmentSize: 5)
        #expect(frames.map(\.opcode) == [.text, .continuation, .continuation])
        #expect(frames.map(\.isFinal) == [false, false, true])
        #expect(frames.flatMap(\.payload) == Array("Hello, world".utf8))
        #expect(frames.map(\.payload.count) == [5, 5, 2])
    }

    @Test func keepsAShortOrEmptyMessageInOneFrame() {
        #expect(
            WebSocketFrameEncoder.fragments(of: .binary([]), maximumFragmentSize: 4)
                == [WebSocketFrame(opcode: .binary, payload: [])]
        )
        #expect(WebSocketFrameEncoder.fragments(of: .binary([1, 2, 3, 4]), maximumFragmentSize: 4).count == 1)
        #expect(WebSocketFrameEncoder.fragments(of: .binary([1, 2]), maximumFragmentSize: 0).count == 2)
    }

    @Test func marksOnlyTheFirstFragmentCompressed() {
        let frames = WebSocketFrameEncoder.fragments(
            of: [1, 2, 3],
            opcode: .binary,
            isCompressed: true,
            maximumFragmentSize: 2
        )
        #expect(frames.map(\.isCompressed) == [true, false])
    }

    @Test func roundTripsThroughTheParserOnceUnmasked() throws {
        var parser = WebSocketFrameParser()
        for frame in WebSocketFrameEncoder.fragments(of: .text("round trip"), maximumFragmentSize: 3) {
            let decoded = try #require(decodeClientFrame(WebSocketFrameEncoder.encode(frame, maskingKey: 0x0102_0304)))
            // The server's side of the same frame: unmasked.
            let header = decoded.first
            parser.append([header, UInt8(decoded.payload.count)] + decoded.payload)
        }
        var payload: [UInt8] = []
        while let frame = try parser.nextFrame() { payload += frame.payload }
        #expect(payload == Array("round trip".utf8))
    }
}
