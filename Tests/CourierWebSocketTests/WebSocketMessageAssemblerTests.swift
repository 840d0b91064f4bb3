import CourierWebSocket
import Testing

@Suite struct WebSocketMessageAssemblerTests {
    private func text(_ string: String, final: Bool = true, opcode: WebSocketOpcode = .text) -> WebSocketFrame {
        WebSocketFrame(isFinal: final, opcode: opcode, payload: Array(string.utf8))
    }

    private func outputs(
        _ frames: [WebSocketFrame],
        assembler: inout WebSocketMessageAssembler,
        inflater: (any WebSocketInflating)? = nil
    ) throws(WebSocketError) -> [WebSocketMessageAssembler.Output] {
        var result: [WebSocketMessageAssembler.Output] = []
        for frame in frames {
            if let output = try assembler.receive(frame, inflater: inflater) { result.append(output) }
        }
        return result
    }

    private func failure(
        _ frames: [WebSocketFrame],
        maximumMessageSize: Int = 1 << 20,
        deflate: WebSocketDeflateParameters? = nil,
        inflater: (any WebSocketInflating)? = nil
    ) -> WebSocketError? {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: maximumMessageSize, deflate: deflate)
        return caught { () throws(WebSocketError) in try outputs(frames, assembler: &assembler, inflater: inflater) }
    }

    @Test func deliversSingleFrameMessages() throws {
        var assembler = WebSocketMessageAssembler()
        let result = try outputs(
            [text("Hello"), WebSocketFrame(opcode: .binary, payload: [1, 2]), text("")],
            assembler: &assembler
        )
        #expect(result == [.message(.text("Hello")), .message(.binary([1, 2])), .message(.text(""))])
    }

    @Test func reassemblesFragmentsWithControlFramesBetween() throws {
        var assembler = WebSocketMessageAssembler()
        let result = try outputs(
            [
                text("Hel", final: false),
                WebSocketFrame(opcode: .ping, payload: [7]),
                text("l", final: false, opcode: .continuation),
                WebSocketFrame(opcode: .pong, payload: []),
                text("o", opcode: .continuation),
            ],
            assembler: &assembler
        )
        #expect(result == [.ping([7]), .pong([]), .message(.text("Hello"))])
        #expect(!assembler.isAssemblingMessage)
    }

    @Test func tracksAnOpenMessage() throws {
        var assembler = WebSocketMessageAssembler()
        #expect(try assembler.receive(text("a", final: false)) == nil)
        #expect(assembler.isAssemblingMessage)
    }

    @Test func refusesAContinuationWithNothingToContinue() {
        #expect(failure([text("x", opcode: .continuation)])?.violationCode == .protocolError)
        #expect(failure([text("a"), text("b", opcode: .continuation)])?.violationCode == .protocolError)
    }

    @Test func refusesANewMessageWhileOneIsOpen() {
        #expect(failure([text("a", final: false), text("b")])?.violationCode == .protocolError)
        #expect(
            failure([text("a", final: false), WebSocketFrame(opcode: .binary, payload: [])])?.violationCode
                == .protocolError
        )
    }

    // Autobahn 6.x: invalid UTF-8 fails the connection as soon as it is seen, not at the message's end.
    @Test func failsInvalidTextAtTheFirstBadFragment() throws {
        var assembler = WebSocketMessageAssembler()
        let kosme = Array("κόσμε".utf8)
        #expect(try assembler.receive(WebSocketFrame(isFinal: false, opcode: .text, payload: kosme)) == nil)
        // A character split between fragments is fine.
        #expect(
            try assembler.receive(WebSocketFrame(isFinal: false, opcode: .continuation, payload: [0xED])) == nil
        )
        let error = caught { () throws(WebSocketError) in
            try assembler.receive(WebSocketFrame(isFinal: false, opcode: .continuation, payload: [0xA0, 0x80]))
        }
        #expect(error?.violationCode == .invalidFramePayloadData)
        #expect(error?.closeCode == .invalidFramePayloadData)
    }

    @Test func failsTextThatEndsInsideACharacter() {
        let frame = WebSocketFrame(opcode: .text, payload: [0x41, 0xE2, 0x82])
        #expect(failure([frame])?.violationCode == .invalidFramePayloadData)
    }

    @Test func acceptsAnyBytesInBinary() throws {
        var assembler = WebSocketMessageAssembler()
        #expect(
            try assembler.receive(WebSocketFrame(opcode: .binary, payload: [0xFF, 0xC0]))
                == .message(.binary([0xFF, 0xC0]))
        )
    }

    @Test func limitsTheMessageSizeAcrossFragments() throws {
        #expect(
            failure(
                [WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: 11))],
                maximumMessageSize: 10
            ) != nil
        )
        let error = failure(
            [
                WebSocketFrame(isFinal: false, opcode: .binary, payload: [UInt8](repeating: 0, count: 6)),
                WebSocketFrame(opcode: .continuation, payload: [UInt8](repeating: 0, count: 5)),
            ],
            maximumMessageSize: 10
        )
        guard case .messageTooBig(let limit) = error else {
            Issue.record("expected messageTooBig, got \(String(describing: error))")
            return
        }
        #expect(limit == 10)
        #expect(error?.closeCode == .messageTooBig)
        var exact = WebSocketMessageAssembler(maximumMessageSize: 10)
        #expect(try exact.receive(WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 1, count: 10))) != nil)
    }

    @Test func checksClosePayloads() throws {
        var assembler = WebSocketMessageAssembler()
        #expect(
            try assembler.receive(WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0x6F, 0x6B]))
                == .close(WebSocketClose(code: .normalClosure, reason: "ok"))
        )
        #expect(failure([WebSocketFrame(opcode: .close, payload: [0x03])])?.violationCode == .protocolError)
        #expect(failure([WebSocketFrame(opcode: .close, payload: [0x03, 0xED])])?.violationCode == .protocolError)
        #expect(
            failure([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0xFF])])?.violationCode
                == .invalidFramePayloadData
        )
    }

    @Test func refusesMalformedControlFramesFromElsewhere() {
        #expect(failure([WebSocketFrame(isFinal: false, opcode: .ping, payload: [])])?.violationCode == .protocolError)
        #expect(failure([WebSocketFrame(opcode: .pong, payload: [UInt8](repeating: 0, count: 126))]) != nil)
    }

    @Test func keepsFailingAfterAFailure() {
        var assembler = WebSocketMessageAssembler()
        #expect(caught { () throws(WebSocketError) in try assembler.receive(text("x", opcode: .continuation)) } != nil)
        #expect(caught { () throws(WebSocketError) in try assembler.receive(text("fine")) } != nil)
    }

    // MARK: permessage-deflate

    // RFC 7692 §7.2.3.1: "Hello" compressed, in one frame and in two.
    private static let compressedHello: [UInt8] = [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]
    private static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    @Test func inflatesTheSingleFrameExample() throws {
        var parser = WebSocketFrameParser(allowsCompression: true)
        parser.append([0xC1, 0x07] + Self.compressedHello)
        let frame = try #require(try parser.nextFrame())
        #expect(frame.isCompressed)
        let inflater = ScriptedInflater([Self.compressedHello + Self.tail: Array("Hello".utf8)])
        var assembler = WebSocketMessageAssembler(deflate: WebSocketDeflateParameters())
        #expect(try assembler.receive(frame, inflater: inflater) == .message(.text("Hello")))
        #expect(inflater.fed == [Self.compressedHello, Self.tail])
        #expect(inflater.resets == 0)
    }

    @Test func inflatesTheFragmentedExample() throws {
        var parser = WebSocketFrameParser(allowsCompression: true)
        parser.append([0x41, 0x03, 0xF2, 0x48, 0xCD, 0x80, 0x04, 0xC9, 0xC9, 0x07, 0x00])
        let inflater = ScriptedInflater([Self.compressedHello + Self.tail: Array("Hello".utf8)])
        var assembler = WebSocketMessageAssembler(deflate: WebSocketDeflateParameters())
        var result: [WebSocketMessageAssembler.Output] = []
        while let frame = try parser.nextFrame() {
            if let output = try assembler.receive(frame, inflater: inflater) { result.append(output) }
        }
        #expect(result == [.message(.text("Hello"))])
        #expect(inflater.fed == [[0xF2, 0x48, 0xCD], [0xC9, 0xC9, 0x07, 0x00], Self.tail])
    }

    // RFC 7692 §7.2.3.2: the second "Hello" refers back into the first message's window, so the
    // same inflater must see both messages; the assembler only resets it when the server said so.
    @Test func keepsTheInflaterBetweenMessagesUnlessTheServerResets() throws {
        let second: [UInt8] = [0xF2, 0x00, 0x11, 0x00, 0x00]
        let table = [Self.compressedHello + Self.tail: Array("Hello".utf8), second + Self.tail: Array("Hello".utf8)]
        let inflater = ScriptedInflater(table)
        var assembler = WebSocketMessageAssembler(deflate: WebSocketDeflateParameters())
        #expect(
            try assembler.receive(
                WebSocketFrame(isCompressed: true, opcode: .text, payload: Self.compressedHello),
                inflater: inflater
            ) == .message(.text("Hello"))
        )
        #expect(
            try assembler.receive(
                WebSocketFrame(isCompressed: true, opcode: .text, payload: second),
                inflater: inflater
            ) == .message(.text("Hello"))
        )
        #expect(inflater.resets == 0)

        let resetting = ScriptedInflater(table)
        var noTakeover = WebSocketMessageAssembler(deflate: WebSocketDeflateParameters(serverNoContextTakeover: true))
        _ = try noTakeover.receive(
            WebSocketFrame(isCompressed: true, opcode: .text, payload: Self.compressedHello),
            inflater: resetting
        )
        #expect(resetting.resets == 1)
    }

    // RFC 7692 §7.2.3.4: an uncompressed message (RSV1 clear) passes by the inflater.
    @Test func passesUncompressedMessagesByTheInflater() throws {
        let inflater = ScriptedInflater([:])
        var assembler = WebSocketMessageAssembler(deflate: WebSocketDeflateParameters())
        #expect(try assembler.receive(text("Hello"), inflater: inflater) == .message(.text("Hello")))
        #expect(inflater.fed.isEmpty)
    }

    @Test func stopsABombAtTheLimit() {
        let inflater = RepeatingInflater(factor: 1_000_000)
        let error = failure(
            [WebSocketFrame(isCompressed: true, opcode: .binary, payload: [1, 2, 3])],
            maximumMessageSize: 100_000,
            deflate: WebSocketDeflateParameters(),
            inflater: inflater
        )
        guard case .messageTooBig = error else {
            Issue.record("expected messageTooBig, got \(String(describing: error))")
            return
        }
        #expect(inflater.totalRead <= 100_001)
    }

    @Test func countsTheLimitOnDecompressedBytes() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 12, deflate: WebSocketDeflateParameters())
        let inflater = RepeatingInflater(factor: 4)
        let exact = WebSocketFrame(isCompressed: true, opcode: .binary, payload: [1, 2, 3])
        #expect(
            try assembler.receive(exact, inflater: inflater) == .message(.binary([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]))
        )
        let over = WebSocketFrame(isCompressed: true, opcode: .binary, payload: [1, 2, 3, 4])
        #expect(
            caught { () throws(WebSocketError) in try assembler.receive(over, inflater: inflater) }?.closeCode
                == .messageTooBig
        )
    }

    @Test func validatesInflatedTextAsItArrives() {
        let inflater = RepeatingInflater(factor: 2)
        let error = failure(
            [WebSocketFrame(isFinal: false, isCompressed: true, opcode: .text, payload: [0x41, 0xFF])],
            deflate: WebSocketDeflateParameters(),
            inflater: inflater
        )
        #expect(error?.violationCode == .invalidFramePayloadData)
    }

    @Test func failsOnCorruptCompressedData() {
        let error = failure(
            [WebSocketFrame(isCompressed: true, opcode: .text, payload: [0xFF])],
            deflate: WebSocketDeflateParameters(),
            inflater: FailingInflater()
        )
        #expect(error?.violationCode == .invalidFramePayloadData)
    }

    @Test func refusesCompressionThatWasNotAgreed() {
        #expect(
            failure([WebSocketFrame(isCompressed: true, opcode: .text, payload: [])])?.violationCode == .protocolError
        )
        #expect(
            failure(
                [text("a", final: false), WebSocketFrame(isCompressed: true, opcode: .continuation, payload: [])],
                deflate: WebSocketDeflateParameters()
            )?.violationCode
                == .protocolError
        )
    }

    @Test func needsAnInflaterForACompressedMessage() {
        let error = failure(
            [WebSocketFrame(isCompressed: true, opcode: .text, payload: [])],
            deflate: WebSocketDeflateParameters()
        )
        #expect(error?.violationCode == .internalError)
    }
}
