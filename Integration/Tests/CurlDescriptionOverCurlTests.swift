import CourierCurl
import CourierHTTP
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation
import Testing

/// The `curl` tool, run on a session's description of a request, sends what the session sent.
@Suite struct CurlDescriptionOverCurlTests {
    /// What httpbin's `/anything` echoes of a request.
    private struct Echo: Equatable {
        let method: String
        let headers: [String: String]
        let data: String

        init(_ body: Data) throws {
            let json = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            method = try #require(json["method"] as? String)
            headers = try #require(json["headers"] as? [String: String])
            data = try #require(json["data"] as? String)
        }
    }

    private func request(to base: URL, ownCookie: Bool) throws -> HTTPRequest {
        var request = HTTPRequest(method: .post, url: base.adding("/anything/it's%20here?q=a'b&r=%5B1%5D"))
        try request.headers.add(name: "Content-Type", value: "application/json")
        try request.headers.add(name: "X-Note", value: #"it's "quoted" $HOME `id` \n"#)
        if ownCookie { try request.headers.add(name: "Cookie", value: "own=1") }
        try request.headers.add(name: "Accept-Language", value: "en-GB;q=1, fr;q=0.9")
        request.body = HTTPBody(Data(#"{"name":"O'Neil","note":"line\nbreak $x"}"#.utf8) + Data("\nend".utf8))
        request.credential = HTTPCredential(user: "ada", password: "p'w:d")
        return request
    }

    @Test(
        .enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"),
        arguments: [CurlDescriptionStyle.multiLine, .singleLine],
        [false, true]
    )
    func theCurlToolSendsWhatTheSessionSent(style: CurlDescriptionStyle, ownCookie: Bool) async throws {
        let base = try #require(CurlTestServers.httpbin)
        let host = try #require(base.host)
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)
        let store = try #require(transport.cookieStore)
        try await store.setCookie(Cookie(name: "flavour", value: "oat'meal", domain: host))
        try await store.setCookie(Cookie(name: "elsewhere", value: "1", domain: host, path: "/status"))
        let request = try request(to: base, ownCookie: ownCookie)
        #expect(request.url.path().hasSuffix("/anything/it's%20here"))

        let described = await session.curlDescription(for: request, style: style, revealingSecrets: true)
        let sent = try Echo(try await session.data(for: request).data ?? Data())
        let syntax = try await runHelperProcess("/bin/sh", ["-n", "-c", described])
        let replayed = try await runHelperProcess("/bin/sh", ["-c", described + " --silent --show-error"])
        await session.shutdown()
        await transport.shutdown()

        #expect(syntax.status == 0, "\(syntax.standardError)")
        #expect(replayed.status == 0, "\(replayed.standardError)")
        // libcurl sends its store's field, then the request's own (werkzeug joins them with a comma).
        #expect(sent.headers["Cookie"] == (ownCookie ? "flavour=oat'meal,own=1" : "flavour=oat'meal"))
        #expect(described.contains(ownCookie ? "-H 'Cookie: flavour=oat" : "-b 'flavour=oat"))
        #expect(sent.headers["Authorization"]?.hasPrefix("Basic ") == true)
        #expect(sent.headers["Accept-Encoding"]?.contains("gzip") == true)
        #expect(sent.headers["User-Agent"] == nil)
        #expect(try Echo(replayed.standardOutput) == sent, "\(described)")
    }
}
