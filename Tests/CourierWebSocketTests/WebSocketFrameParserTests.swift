import CourierWebSocket
import Testing

@Suite struct WebSocketFrameParserTests {
    private func frames(_ bytes: [UInt8], allowsCompression: Bool = false, maximumFrameSize: Int = 1 << 20)
        throws(WebSocketError) -> [WebSocketFrame]
    {
        var parser = WebSocketFrameParser(maximumFrameSize: maximumFrameSize, allowsCompression: allowsCompression)
        parser.append(bytes)
        var result: [WebSocketFrame] = []
        while let frame = try parser.nextFrame() { result.append(frame) }
        return result
    }

    private func violation(_ bytes: [UInt8], allowsCompression: Bool = false) -> WebSocketCloseCode? {
        caught { () throws(WebSocketError) in try frames(bytes, allowsCompression: allowsCompression) }?.violationCode
    }

    // RFC 6455 §5.7: "A single-frame unmasked text message".
    @Test func readsTheUnmaskedHelloExample() throws {
        let result = try frames([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(result == [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
    }

    // RFC 6455 §5.7: "A fragmented unmasked text message".
    @Test func readsTheFragmentedExample() throws {
        let result = try frames([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F])
        #expect(
            result == [
                WebSocketFrame(isFinal: false, opcode: .text, payload: Array("Hel".utf8)),
                WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)),
            ]
        )
    }

    // RFC 6455 §5.7: "Unmasked Ping request and masked Ping response" (the server's side is unmasked).
    @Test func readsTheUnmaskedPingExample() throws {
        let result = try frames([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(result == [WebSocketFrame(opcode: .ping, payload: Array("Hello".utf8))])
    }

    // RFC 6455 §5.7: 256 bytes in a single unmasked frame, and 64 KiB.
    @Test func readsThe16And64BitLengthExamples() throws {
        let short = try frames([0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 7, count: 256))
        #expect(short == [WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 7, count: 256))])
        let long = try frames([0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + [UInt8](repeating: 9, count: 65_536))
        #expect(long == [WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 9, count: 65_536))])
    }

    @Test func acceptsALengthInALongerFormThanNeeded() throws {
        let result = try frames([0x82, 0x7E, 0x00, 0x02, 1, 2, 0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0, 1, 3])
        #expect(result.map(\.payload) == [[1, 2], [3]])
    }

    // RFC 6455 §5.7's masked "Hello" is a client frame; a client receiving it must fail (§5.1).
    @Test func refusesAMaskedFrameFromTheServer() {
        var parser = WebSocketFrameParser()
        parser.append([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        #expect(caught { () throws(WebSocketError) in try parser.nextFrame() }?.violationCode == .protocolError)
    }

    @Test func readsFramesFedOneByteAtATime() throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x89, 0x00, 0x80, 0x02, 0x6C, 0x6F]
        var parser = WebSocketFrameParser()
        var result: [WebSocketFrame] = []
        for byte in bytes {
            parser.append([byte])
            while let frame = try parser.nextFrame() { result.append(frame) }
        }
        #expect(result.map(\.opcode) == [.text, .ping, .continuation])
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func waitsForTheExtendedLengthAndThePayload() throws {
        var parser = WebSocketFrameParser()
        parser.append([0x82, 0x7E, 0x00])
        #expect(try parser.nextFrame() == nil)
        parser.append([0x03, 1, 2])
        #expect(try parser.nextFrame() == nil)
        parser.append([3])
        #expect(try parser.nextFrame() == WebSocketFrame(opcode: .binary, payload: [1, 2, 3]))
    }

    @Test(arguments: [0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF] as [UInt8])
    func refusesReservedOpcodes(opcode: UInt8) {
        #expect(violation([0x80 | opcode, 0x00]) == .protocolError)
    }

    @Test func refusesReservedBitsWithoutAnExtension() {
        #expect(violation([0xC1, 0x00]) == .protocolError)  // RSV1
        #expect(violation([0xA1, 0x00]) == .protocolError)  // RSV2
        #expect(violation([0x91, 0x00]) == .protocolError)  // RSV3
        #expect(violation([0xA1, 0x00], allowsCompression: true) == .protocolError)
    }

    // RFC 7692 §6.1: RSV1 marks the first frame of a compressed message, never a continuation or control.
    @Test func allowsRSV1OnlyOnTheFirstDataFrameWithDeflate() throws {
        let result = try frames([0x41, 0x01, 0xAA, 0x80, 0x01, 0xBB], allowsCompression: true)
        #expect(result.map(\.isCompressed) == [true, false])
        #expect(violation([0x01, 0x00, 0xC0, 0x00], allowsCompression: true) == .protocolError)
        #expect(violation([0xC9, 0x00], allowsCompression: true) == .protocolError)
        #expect(violation([0xC8, 0x00], allowsCompression: true) == .protocolError)
    }

    @Test func refusesLongAndFragmentedControlFrames() {
        #expect(violation([0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126)) == .protocolError)
        #expect(violation([0x09, 0x00]) == .protocolError)
        #expect(violation([0x08, 0x00]) == .protocolError)
        #expect(violation([0x0A, 0x00]) == .protocolError)
    }

    @Test func acceptsA125BytePing() throws {
        let result = try frames([0x89, 0x7D] + [UInt8](repeating: 1, count: 125))
        #expect(result.first?.payload.count == 125)
    }

    @Test func refusesA64BitLengthWithItsTopBitSet() {
        #expect(violation([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0]) == .protocolError)
    }

    @Test func refusesAnOversizedFrameFromItsHeader() {
        var parser = WebSocketFrameParser(maximumFrameSize: 1_000)
        parser.append([0x82, 0x7E, 0x03, 0xE9])  // 1001 bytes announced, none sent
        let error = caught { () throws(WebSocketError) in try parser.nextFrame() }
        guard case .frameTooBig(let length, let limit) = error else {
            Issue.record("expected frameTooBig, got \(String(describing: error))")
            return
        }
        #expect(length == 1_001 && limit == 1_000)
        #expect(error?.closeCode == .messageTooBig)
        var exact = WebSocketFrameParser(maximumFrameSize: 1_000)
        exact.append([0x82, 0x7E, 0x03, 0xE8] + [UInt8](repeating: 0, count: 1_000))
        #expect((try? exact.nextFrame())??.payload.count == 1_000)
    }

    @Test func keepsFailingAfterAFailure() {
        var parser = WebSocketFrameParser()
        parser.append([0x83, 0x00, 0x81, 0x00])
        #expect(caught { () throws(WebSocketError) in try parser.nextFrame() }?.violationCode == .protocolError)
        #expect(caught { () throws(WebSocketError) in try parser.nextFrame() }?.violationCode == .protocolError)
    }

    @Test func readsManyFramesAcrossCompactions() throws {
        var parser = WebSocketFrameParser()
        var count = 0
        for index in 0..<5_000 {
            parser.append([0x82, 0x03, UInt8(index & 0xFF), 1, 2])
            if index % 3 == 0 {
                while try parser.nextFrame() != nil { count += 1 }
            }
        }
        while try parser.nextFrame() != nil { count += 1 }
        #expect(count == 5_000)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func readsFromAnUnsafeBuffer() throws {
        var parser = WebSocketFrameParser()
        [UInt8]([0x8A, 0x01, 0x2A]).withUnsafeBytes { parser.append($0) }
        #expect(try parser.nextFrame() == WebSocketFrame(opcode: .pong, payload: [0x2A]))
    }
}
