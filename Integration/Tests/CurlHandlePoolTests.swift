import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// Transfers run on easy handles that earlier transfers used (reset, from the loop's pool): none
/// may inherit another's cookies, credentials or method.
@Suite struct CurlHandlePoolTests {
    private func echo(_ request: HTTPRequest, on transport: CurlTransport) async throws -> [String: Any] {
        let result = try await transport.startTransfer(request).collect(upTo: 1 << 16)
        return try #require(try JSONSerialization.jsonObject(with: result.body) as? [String: Any])
    }

    private func cookies(at base: URL, on transport: CurlTransport, handles: Bool?) async throws -> [String: String] {
        var request = HTTPRequest(url: base.adding("/cookies"))
        request.handlesCookies = handles
        return try await echo(request, on: transport)["cookies"] as? [String: String] ?? [:]
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func anOptedOutTransferNeverGetsAJarFromAReusedHandle() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        var optedOut = HTTPRequest(url: base.adding("/cookies/set?ignored=1"))
        optedOut.handlesCookies = false
        for _ in 0..<3 {
            _ = try await transport.startTransfer(optedOut).collect(upTo: 1 << 16)
            // The handle that just received `ignored=1` is the one this transfer reuses.
            #expect(try await cookies(at: base, on: transport, handles: false) == [:])
        }
        _ = try await transport.startTransfer(HTTPRequest(url: base.adding("/cookies/set?kept=1")))
            .collect(upTo: 1 << 16)
        #expect(try await cookies(at: base, on: transport, handles: nil) == ["kept": "1"])
        #expect(try await cookies(at: base, on: transport, handles: false) == [:])
        #expect(try await cookies(at: base, on: transport, handles: nil) == ["kept": "1"])
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func aReusedHandleForgetsTheCredentialAndMethodOfItsLastTransfer() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        var authenticated = HTTPRequest(url: base.adding("/anything"))
        authenticated.method = .delete
        authenticated.credential = HTTPCredential(user: "user", password: "secret")
        let first = try await echo(authenticated, on: transport)
        #expect(first["method"] as? String == "DELETE")
        #expect((first["headers"] as? [String: String])?["Authorization"] != nil)
        let plain = try await echo(HTTPRequest(url: base.adding("/anything")), on: transport)
        #expect(plain["method"] as? String == "GET")
        #expect((plain["headers"] as? [String: String])?["Authorization"] == nil)
        await transport.shutdown()
    }
}
