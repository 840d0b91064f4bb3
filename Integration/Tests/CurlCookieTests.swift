import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

@Suite struct CurlCookieTests {
    private func cookies(at base: URL, transport: CurlTransport, handles: Bool? = nil) async throws -> [String: String]
    {
        var request = HTTPRequest(url: base.adding("/cookies"))
        request.handlesCookies = handles
        let result = try await transport.startTransfer(request).collect(upTo: 1 << 16)
        let json = try #require(try JSONSerialization.jsonObject(with: result.body) as? [String: Any])
        return json["cookies"] as? [String: String] ?? [:]
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func keepsListsAndClearsCookies() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let set = try await transport.startTransfer(HTTPRequest(url: base.adding("/cookies/set?flavour=oat")))
            .collect(upTo: 1 << 16)
        #expect(set.response.status.code == 302)
        let lines = try await transport.cookies.all()
        #expect(lines.count == 1)
        #expect(lines.first?.hasSuffix("\tflavour\toat") == true)
        #expect(try await cookies(at: base, transport: transport) == ["flavour": "oat"])
        #expect(try await cookies(at: base, transport: transport, handles: false) == [:])

        try await transport.cookies.set("Set-Cookie: extra=1; Domain=127.0.0.1; Path=/")
        #expect(try await cookies(at: base, transport: transport) == ["flavour": "oat", "extra": "1"])

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-jar-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await transport.cookies.save(to: path)
        try await transport.cookies.removeAll()
        #expect(try await transport.cookies.all().isEmpty)
        #expect(try await cookies(at: base, transport: transport) == [:])
        try await transport.cookies.load(from: path)
        #expect(try await transport.cookies.all().count == 2)
        await #expect(throws: TransportError.self) { try await transport.cookies.load(from: path + "-missing") }
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func ignoresCookiesWhenDisabled() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport { $0.cookiePolicy = .disabled }
        _ = try await transport.startTransfer(HTTPRequest(url: base.adding("/cookies/set?a=b"))).collect(upTo: 1 << 16)
        #expect(try await transport.cookies.all().isEmpty)
        await transport.shutdown()
    }
}
