import CCourierZlib
import CourierContentDecoding
import Foundation
import Testing

/// Raw deflate with a persistent context, as WebSocket's permessage-deflate receives it (RFC 7692).
@Suite struct PermessageDeflateTests {
    /// RFC 7692 §7.2.1: a message is compressed with a sync flush and sent without the four bytes
    /// `00 00 FF FF` that end it; the receiver appends them again (§7.2.2).
    static let tail = Data([0x00, 0x00, 0xFF, 0xFF])

    /// Compresses `messages` with one deflate context (context takeover), one payload per message.
    static func payloads(_ messages: [String]) throws -> [Data] {
        var deflater = try Encoders.Deflater(windowBits: -15)
        return try messages.map { message in
            let flushed = try deflater.deflate(Data(message.utf8), flush: Z_SYNC_FLUSH)
            #expect(flushed.suffix(4) == tail)
            return flushed.dropLast(4)
        }
    }

    static func receive(_ payload: Data, with decoder: ContentDecoder) throws -> String {
        decoder.feed(payload + tail)
        var message = Data()
        while let piece = try decoder.read(maximumCount: 7) { message += piece }
        return String(decoding: message, as: UTF8.self)
    }

    @Test func messagesShareTheWindow() throws {
        let text = "Hello, WebSocket! Hello, WebSocket! permessage-deflate keeps its window."
        let payloads = try Self.payloads([text, text, "bye"])
        // The second message is all back-references into the first.
        #expect(payloads[1].count < payloads[0].count / 3)
        let decoder = try ContentDecoder(codings: [.rawDeflate])
        #expect(try Self.receive(payloads[0], with: decoder) == text)
        #expect(try Self.receive(payloads[1], with: decoder) == text)
        #expect(try Self.receive(payloads[2], with: decoder) == "bye")
        // The stream never ends: a message boundary is not the end of a deflate stream.
        #expect(!decoder.isComplete)
        #expect(decoder.bufferedInputCount == 0)
    }

    @Test func resetForgetsTheWindow() throws {
        let text = "a message long enough to be referenced by the next one, twice over"
        let payloads = try Self.payloads([text, text])
        let decoder = try ContentDecoder(codings: [.rawDeflate])
        #expect(try Self.receive(payloads[0], with: decoder) == text)
        try decoder.reset()  // server_no_context_takeover on the receiving side
        #expect {
            try Self.receive(payloads[1], with: decoder)
        } throws: { error in
            let error = error as? ContentDecodingError
            return error?.code == .corruptData && error?.coding == .rawDeflate
        }
    }
}
