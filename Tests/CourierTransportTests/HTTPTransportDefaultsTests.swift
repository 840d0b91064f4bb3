import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// What a transport that implements only `startTransfer` gets from the protocol's defaults.
@Suite struct HTTPTransportDefaultsTests {
    /// The least a conformer writes: one method, a transfer that fails at once.
    struct MinimalTransport: HTTPTransport {
        struct NoControl: TransferControlling {
            func cancel() {}
            func suspend() {}
            func resume() {}
        }

        func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
            let (events, source) = TransferEvents.makeEvents(highWaterMark: 1, lowWaterMark: 0)
            source.yield(.failed(TransportError(category: .cancelled, message: "minimal", url: request.url)))
            return HTTPTransfer(request: request, events: events, controller: NoControl())
        }
    }

    @Test func offersTheGlobalConcurrentExecutor() {
        let transport: any HTTPTransport = MinimalTransport()
        #expect(ObjectIdentifier(type(of: transport.executor)) == ObjectIdentifier(type(of: globalConcurrentExecutor)))
    }

    @Test func keepsNoCookies() {
        #expect(MinimalTransport().cookieStore == nil)
    }

    @Test func refusesRawConnectionsWithAConfigurationError() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/chat"))
        do {
            _ = try await MinimalTransport().openRawConnection(
                to: HTTPRequest(url: url),
                options: RawConnectionOptions()
            )
            Issue.record("the default opened a connection")
        } catch let error as TransportError {
            #expect(error.category == .configuration)
            #expect(error.url == url)
            #expect(error.message == "this transport (MinimalTransport) does not support raw connections")
        }
    }

    @Test func rawConnectionOptionsKeepAPositiveHighWaterMark() {
        #expect(RawConnectionOptions().readHighWaterMark == 256 << 10)
        #expect(RawConnectionOptions(readHighWaterMark: 0).readHighWaterMark == 1)
        #expect(RawConnectionOptions(readHighWaterMark: -5).readHighWaterMark == 1)
    }

    @Test func handlesCookiesAndLeavesResponsesAsSent() {
        #expect(
            MinimalTransport().requestDefaults
                == TransportRequestDefaults(handlesCookies: true, decompressesResponses: false)
        )
    }
}
