import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

@Suite struct CurlBasicTransferTests {
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func getsSmallFileOverHTTP1() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let result = try await transport.startTransfer(HTTPRequest(url: base.adding("/small"))).collect(upTo: 1 << 20)
        #expect(result.response.status.code == 200)
        #expect(result.response.version == .http1_1)
        #expect(result.body == Data(repeating: UInt8(ascii: "a"), count: 100))
        #expect(result.response.headers["Content-Length"] == "100")
        #expect(result.metrics.protocolVersion == .http1_1)
        #expect(result.metrics.remoteAddress == "127.0.0.1")
        #expect(result.metrics.remotePort == base.port)
        #expect(result.metrics.decodedBodyBytes == 100)
        await transport.shutdown()
    }
}
