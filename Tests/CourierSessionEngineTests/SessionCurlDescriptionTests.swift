import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct SessionCurlDescriptionTests {
    private let url = URL(string: "https://api.example.com/items")!

    private func transportWithCookies() async throws -> MockTransport {
        let transport = MockTransport()
        let store = try #require(transport.cookies)
        try await store.setCookie(Cookie(name: "session", value: "abc", domain: "api.example.com"))
        try await store.setCookie(Cookie(name: "theme", value: "dark", domain: "example.com", isHostOnly: false))
        try await store.setCookie(Cookie(name: "other", value: "1", domain: "elsewhere.example.org"))
        try await store.setCookie(Cookie(name: "admin", value: "1", domain: "api.example.com", path: "/admin"))
        return transport
    }

    @Test func addsTheCookiesTheTransportsStoreWouldSend() async throws {
        let session = SessionManager(transport: try await transportWithCookies())
        let request = HTTPRequest(url: url, headers: try HTTPHeaders([("User-Agent", "app/1.0")]))

        #expect(
            await session.curlDescription(for: request)
                == "curl -X 'GET' -b 'session=***; theme=***' -H 'User-Agent: app/1.0' 'https://api.example.com/items'"
        )
        #expect(
            await session.curlDescription(for: request, revealingSecrets: true)
                .contains("-b 'session=abc; theme=dark'")
        )
    }

    @Test func describesTheCookieFieldTheTransportSends() async throws {
        let transport = try await transportWithCookies()
        transport.stub(url: url.absoluteString, reply: .init(status: 204))
        let session = SessionManager(transport: transport)
        let request = HTTPRequest(url: url)

        let described = await session.curlDescription(for: request, revealingSecrets: true)
        _ = await session.response(for: request, serializer: DataResponseSerializer(), options: RequestOptions())

        let sent = try #require(transport.startedRequests.first?.headers["Cookie"])
        #expect(sent == "session=abc; theme=dark")
        #expect(described.contains("-b '\(sent)'"))
    }

    @Test func leavesCookiesOutForARequestThatOptsOut() async throws {
        let session = SessionManager(transport: try await transportWithCookies())
        var request = HTTPRequest(url: url)
        request.handlesCookies = false

        #expect(
            await session.curlDescription(for: request)
                == "curl -X 'GET' -H 'User-Agent:' 'https://api.example.com/items'"
        )
    }

    @Test func leavesCookiesOutForATransportWithoutAStore() async throws {
        let session = SessionManager(transport: MockTransport(cookies: nil))

        #expect(
            await session.curlDescription(for: HTTPRequest(url: url))
                == "curl -X 'GET' -H 'User-Agent:' 'https://api.example.com/items'"
        )
    }

    @Test func followsTheTransportsDefaults() async throws {
        let inner = try await transportWithCookies()
        let transport = DefaultsTransport(
            inner: inner,
            requestDefaults: TransportRequestDefaults(handlesCookies: false, decompressesResponses: true)
        )
        let session = SessionManager(transport: transport)
        var request = HTTPRequest(url: url, headers: try HTTPHeaders([("User-Agent", "app")]))

        #expect(
            await session.curlDescription(for: request)
                == "curl -X 'GET' -H 'User-Agent: app' --compressed 'https://api.example.com/items'"
        )
        request.handlesCookies = true
        #expect(
            await session.curlDescription(for: request)
                == "curl -X 'GET' -b 'session=***; theme=***' -H 'User-Agent: app' --compressed "
                + "'https://api.example.com/items'"
        )
    }

    @Test func saysWhyTheCookiesAreMissingWhenTheStoreFails() async throws {
        let transport = DefaultsTransport(
            inner: MockTransport(),
            requestDefaults: TransportRequestDefaults(handlesCookies: true, decompressesResponses: false),
            store: FailingCookieStore()
        )
        let session = SessionManager(transport: transport)

        let described = await session.curlDescription(for: HTTPRequest(url: url), style: .multiLine)

        let lines = described.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.hasPrefix("# cookies left out: the cookie store failed: ") == true)
        #expect(lines.first?.contains("the store is gone") == true)
        #expect(
            lines.dropFirst().joined(separator: "\n")
                == "curl \\\n  -X 'GET' \\\n  -H 'User-Agent:' \\\n  'https://api.example.com/items'"
        )
    }

    @Test func describesTheSerializersDefaultHeadersOfACallsRequest() async throws {
        let session = SessionManager(transport: MockTransport())
        let api = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1"), session: session)
        api.requestSerializer = HTTPRequestSerializer(
            preferredLanguages: ["en-GB", "fr"],
            userAgent: "app/1.0 (Linux)"
        )
        let request = try api.request(.post, "items", parameters: ["name": "Ada"])

        #expect(
            await api.session.curlDescription(for: request, style: .multiLine) == """
                curl \\
                  -X 'POST' \\
                  -H 'Accept-Language: en-GB;q=1, fr;q=0.9' \\
                  -H 'User-Agent: app/1.0 (Linux)' \\
                  -H 'Content-Type: application/x-www-form-urlencoded' \\
                  --data-raw 'name=Ada' \\
                  'https://api.example.com/v1/items'
                """
        )
    }
}

/// A transport with chosen defaults (and store) over a `MockTransport`.
private struct DefaultsTransport: HTTPTransport {
    let inner: MockTransport
    let requestDefaults: TransportRequestDefaults
    var store: (any CookieStore)?

    init(inner: MockTransport, requestDefaults: TransportRequestDefaults, store: (any CookieStore)? = nil) {
        self.inner = inner
        self.requestDefaults = requestDefaults
        self.store = store ?? inner.cookieStore
    }

    var cookieStore: (any CookieStore)? { store }

    func startTransfer(_ request: HTTPRequest, options: TransferOptions) -> HTTPTransfer {
        inner.startTransfer(request, options: options)
    }
}

/// A cookie store whose transport has been shut down.
private struct FailingCookieStore: CookieStore {
    private var gone: TransportError { TransportError(category: .shutDown, message: "the store is gone\nfor good") }

    func allCookies() async throws(TransportError) -> [Cookie] { throw gone }
    func cookies(for url: URL) async throws(TransportError) -> [Cookie] { throw gone }
    func setCookie(_ cookie: Cookie) async throws(TransportError) { throw gone }
    func removeCookie(_ cookie: Cookie) async throws(TransportError) { throw gone }
    func removeAllCookies() async throws(TransportError) { throw gone }
}
