import CourierWebSocket
import Testing

@Suite struct WebSocketCloseTests {
    @Test func classifiesCodesForTheWire() {
        let valid: [UInt16] = [
            1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999,
        ]
        let invalid: [UInt16] = [0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65_535]
        for code in valid { #expect(WebSocketCloseCode(rawValue: code).isValidOnWire, "\(code)") }
        for code in invalid { #expect(!WebSocketCloseCode(rawValue: code).isValidOnWire, "\(code)") }
    }

    @Test func namesTheRegisteredCodes() {
        #expect(WebSocketCloseCode.normalClosure.rawValue == 1000)
        #expect(WebSocketCloseCode.internalError.rawValue == 1011)
        #expect(WebSocketCloseCode.tlsHandshake.rawValue == 1015)
        #expect(WebSocketCloseCode.messageTooBig.description == "1009 (message too big)")
        #expect(WebSocketCloseCode(rawValue: 4321).description == "4321")
    }

    @Test func parsesEmptyAndCodedPayloads() throws {
        #expect(try WebSocketClose(payload: []) == WebSocketClose(code: nil))
        #expect(try WebSocketClose(payload: [0x03, 0xE8]) == WebSocketClose(code: .normalClosure))
        #expect(
            try WebSocketClose(payload: [0x0F, 0xA0] + Array("bye ✓".utf8))
                == WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "bye ✓")
        )
    }

    @Test func refusesBadPayloads() {
        #expect(
            caught { () throws(WebSocketError) in try WebSocketClose(payload: [0x03]) }?.violationCode == .protocolError
        )
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            #expect(
                caught { () throws(WebSocketError) in try WebSocketClose(payload: payload) }?.violationCode
                    == .protocolError
            )
        }
        let badReason: [UInt8] = [0x03, 0xE8, 0xCE, 0xBA, 0xE1, 0xBD]  // cut inside a character
        #expect(
            caught { () throws(WebSocketError) in try WebSocketClose(payload: badReason) }?.violationCode
                == .invalidFramePayloadData
        )
    }

    @Test func writesPayloadsThatFitAControlFrame() throws {
        #expect(WebSocketClose(code: nil, reason: "ignored").payload.isEmpty)
        #expect(WebSocketClose(code: .goingAway, reason: "ok").payload == [0x03, 0xE9, 0x6F, 0x6B])
        let long = WebSocketClose(code: .normalClosure, reason: String(repeating: "é", count: 100))
        #expect(long.payload.count == 124)  // 2 + 61 two-byte characters: the 62nd would pass 125
        #expect(try WebSocketClose(payload: long.payload).reason == String(repeating: "é", count: 61))
        #expect(WebSocketFrame.close(long).payload.count <= WebSocketFrame.maximumControlPayloadSize)
    }
}
