import CourierWebSocket
import Testing

@Suite struct WebSocketDeflateNegotiationTests {
    private func negotiate(
        _ values: [String],
        offer: WebSocketDeflateOffer? = WebSocketDeflateOffer()
    ) throws(WebSocketError.HandshakeCheck) -> WebSocketDeflateParameters? {
        try WebSocketDeflateParameters.negotiate(responseExtensions: values, offer: offer)
    }

    private func refuses(_ values: [String], offer: WebSocketDeflateOffer? = WebSocketDeflateOffer()) -> Bool {
        do {
            _ = try negotiate(values, offer: offer)
            return false
        } catch {
            if case .extensions = error { return true }
            return false
        }
    }

    @Test func writesTheOffer() {
        #expect(WebSocketDeflateOffer().extensionHeaderValue == "permessage-deflate; client_max_window_bits")
        var offer = WebSocketDeflateOffer()
        offer.serverNoContextTakeover = true
        offer.clientNoContextTakeover = true
        offer.serverMaxWindowBits = 10
        offer.offersClientMaxWindowBits = false
        #expect(
            offer.extensionHeaderValue
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10"
        )
        offer.serverMaxWindowBits = 20
        #expect(offer.extensionHeaderValue.hasSuffix("server_max_window_bits=15"))
    }

    @Test func noAnswerMeansNoCompression() throws {
        #expect(try negotiate([]) == nil)
        #expect(try negotiate([""]) == nil)
        #expect(try negotiate([], offer: nil) == nil)
    }

    @Test func readsTheAgreedParameters() throws {
        #expect(try negotiate(["permessage-deflate"]) == WebSocketDeflateParameters())
        let all = try negotiate([
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=9"
        ])
        #expect(
            all
                == WebSocketDeflateParameters(
                    serverNoContextTakeover: true,
                    clientNoContextTakeover: true,
                    serverMaxWindowBits: 10,
                    clientMaxWindowBits: 9
                )
        )
        #expect(try negotiate(["Permessage-Deflate ;SERVER_MAX_WINDOW_BITS=\"8\""])?.serverMaxWindowBits == 8)
    }

    @Test func refusesBadParameters() {
        #expect(refuses(["permessage-deflate; server_no_context_takeover; server_no_context_takeover"]))
        #expect(refuses(["permessage-deflate; unknown_parameter"]))
        #expect(refuses(["permessage-deflate; server_no_context_takeover=1"]))
        #expect(refuses(["permessage-deflate; client_no_context_takeover=yes"]))
        for value in ["7", "16", "08", "", "x", "1a", "-9"] {
            #expect(refuses(["permessage-deflate; server_max_window_bits=\(value)"]), "\(value)")
            #expect(refuses(["permessage-deflate; client_max_window_bits=\(value)"]), "\(value)")
        }
        #expect(refuses(["permessage-deflate; server_max_window_bits"]))
        #expect(refuses(["permessage-deflate; client_max_window_bits"]))
        #expect(refuses(["permessage-deflate; ; server_no_context_takeover"]))
        #expect(refuses(["; server_no_context_takeover"]))
    }

    @Test func refusesAClientWindowThatWasNotOffered() {
        var offer = WebSocketDeflateOffer()
        offer.offersClientMaxWindowBits = false
        #expect(refuses(["permessage-deflate; client_max_window_bits=10"], offer: offer))
    }

    @Test func refusesAServerWindowLargerThanOffered() throws {
        var offer = WebSocketDeflateOffer()
        offer.serverMaxWindowBits = 10
        #expect(refuses(["permessage-deflate; server_max_window_bits=11"], offer: offer))
        #expect(try negotiate(["permessage-deflate; server_max_window_bits=9"], offer: offer)?.serverMaxWindowBits == 9)
    }

    @Test func refusesExtensionsThatWereNotOffered() {
        #expect(refuses(["permessage-deflate"], offer: nil))
        #expect(refuses(["x-webkit-deflate-frame"]))
        #expect(refuses(["permessage-deflate, permessage-deflate"]))
        #expect(refuses(["permessage-deflate", "permessage-deflate; server_no_context_takeover"]))
        #expect(refuses(["permessage-deflate, x-custom"]))
    }
}
