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

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func readsServerSetCookiesThroughTheProtocol() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let store = try #require(transport.cookieStore)
        let set = try await transport.startTransfer(HTTPRequest(url: base.adding("/cookies/set?flavour=oat")))
            .collect(upTo: 1 << 16)
        #expect(set.response.status.code == 302)
        let expected = Cookie(name: "flavour", value: "oat", domain: "127.0.0.1", path: "/")
        #expect(try await store.allCookies() == [expected])
        #expect(try await store.cookies(for: base.adding("/cookies")) == [expected])
        #expect(try await cookies(at: base, transport: transport) == ["flavour": "oat"])

        try await store.removeCookie(expected)
        #expect(try await store.allCookies().isEmpty)
        #expect(try await cookies(at: base, transport: transport) == [:])
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func sendsCookiesSetThroughTheProtocol() async throws {
        // A name, not 127.0.0.1: libcurl treats loopback addresses as secure, and sends Secure
        // cookies to them over http (see the next test).
        let httpbin = try #require(CurlTestServers.httpbin)
        let port = try #require(httpbin.port)
        let base = try #require(URL(string: "http://api.test:\(port)"))
        let transport = CurlTestServers.transport {
            $0.resolveOverrides = [
                CurlTransport.ResolveOverride(host: "api.test", port: port, addresses: ["127.0.0.1"])
            ]
        }
        let store = try #require(transport.cookieStore)
        let future = Date(timeIntervalSinceNow: 3600)
        try await store.setCookies([
            Cookie(name: "plain", value: "1", domain: "api.test"),
            Cookie(name: "lasting", value: "2", domain: "api.test", expiry: future, isHTTPOnly: true),
            // None of these may reach http://api.test/cookies:
            Cookie(name: "secure", value: "3", domain: "api.test", isSecure: true),
            Cookie(name: "elsewhere", value: "4", domain: "api.test", path: "/anything"),
            Cookie(name: "subdomain", value: "5", domain: "www.api.test", isHostOnly: false),
        ])
        #expect(try await cookies(at: base, transport: transport) == ["plain": "1", "lasting": "2"])
        #expect(try await cookies(at: base, transport: transport, handles: false) == [:])
        #expect(try await store.cookies(for: base.adding("/cookies")).map(\.name).sorted() == ["lasting", "plain"])
        let lasting = try await store.allCookies().first { $0.name == "lasting" }
        #expect(lasting?.expiry == Date(timeIntervalSince1970: future.timeIntervalSince1970.rounded(.down)))
        #expect(lasting?.isHTTPOnly == true)

        // Replacing keeps one cookie per name, domain and path; an expired one deletes it.
        try await store.setCookie(Cookie(name: "plain", value: "changed", domain: "api.test"))
        try await store.setCookie(Cookie(name: "lasting", value: "", domain: "api.test", expiry: .distantPast))
        #expect(try await cookies(at: base, transport: transport) == ["plain": "changed"])

        let error = await #expect(throws: TransportError.self) {
            try await store.setCookie(Cookie(name: "bad", value: "a\tb", domain: "api.test"))
        }
        #expect(error?.category == .invalidRequest)
        try await store.removeAllCookies()
        #expect(try await store.allCookies().isEmpty)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func treatsLoopbackAsSecureAsLibcurlDoes() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let store = try #require(transport.cookieStore)
        try await store.setCookie(Cookie(name: "secure", value: "1", domain: "127.0.0.1", isSecure: true))
        #expect(try await cookies(at: base, transport: transport) == ["secure": "1"])
        #expect(try await store.cookies(for: base.adding("/cookies")).map(\.name) == ["secure"])
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func aRequestThatOptsOutNeitherStoresNorSends() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let store = try #require(transport.cookieStore)
        var optedOut = HTTPRequest(url: base.adding("/cookies/set?ignored=1"))
        optedOut.handlesCookies = false
        _ = try await transport.startTransfer(optedOut).collect(upTo: 1 << 16)
        #expect(try await store.allCookies().isEmpty)
        _ = try await transport.startTransfer(HTTPRequest(url: base.adding("/cookies/set?kept=1"))).collect(
            upTo: 1 << 16
        )
        #expect(try await store.allCookies().map(\.name) == ["kept"])
        await transport.shutdown()
    }

    @Test func aTransportThatCannotStartFailsItsStoreWithATypedError() async {
        let transport = CurlTestServers.transport { $0.maxConnectionsPerHost = 0 }
        let error = await #expect(throws: TransportError.self) { try await transport.cookieStore?.allCookies() }
        #expect(error?.category == .configuration)
        await transport.shutdown()
    }
}
