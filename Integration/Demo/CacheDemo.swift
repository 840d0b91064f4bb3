internal import CourierCurl
internal import CourierHTTP
internal import CourierHTTPCache
internal import CourierSerialization
internal import CourierSessionCore
internal import CourierSessionEngine
internal import CourierTransport
internal import FoundationEssentials

/// The HTTP cache over the libcurl transport: a static file fetched, then revalidated: nginx
/// answers `304 Not Modified` with no body, and the body comes from the cache.
///
/// Needs the loopback nginx `ci/demo` starts (`TEST_HTTP_URL`); without it it says how to run it
/// and counts no failure.
struct CacheDemo {
    func run() async -> Int {
        DemoOutput.section("HTTP cache (CourierHTTPCache, RFC 9111)")
        guard let base = TransportDemo.environment("TEST_HTTP_URL").flatMap(URL.init(string:)) else {
            print("  skipped: this part needs the loopback test servers; `ci/demo` starts them and runs it")
            return 0
        }
        var transportConfiguration = CurlTransport.Configuration()
        transportConfiguration.proxy = .none
        let transport = CurlTransport(configuration: transportConfiguration)
        var configuration = SessionConfiguration()
        configuration.cache = HTTPCache(store: MemoryCacheStore())
        let session = SessionManager(transport: transport, configuration: configuration)
        let failures = await revalidation(session, base.appending(path: "text.txt"))
        await session.shutdown()
        await transport.shutdown()
        return failures
    }

    private func revalidation(_ session: SessionManager, _ url: URL) async -> Int {
        DemoOutput.line("GET", url.absoluteString)
        let first = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        DemoOutput.line(
            "first",
            "\(Self.describe(first)), ETag \(first.response?.headers["ETag"] ?? "-"), stored"
        )
        // A reload: the request's own no-cache makes the cache ask the server, with the validators.
        var reload = HTTPRequest(url: url)
        try? reload.headers.set(name: "Cache-Control", value: "no-cache")  // a constant valid value
        let second = await session.response(for: reload, serializer: DataResponseSerializer())
        let wire = second.metrics.last?.responseBodyBytes ?? -1
        DemoOutput.line("reload (no-cache)", "sent If-None-Match \(second.request?.headers["If-None-Match"] ?? "-")")
        DemoOutput.line(
            "revalidated",
            "server answered 304 with \(wire) body bytes; \(Self.describe(second)) merged from the cache"
        )
        return check(
            first.error == nil && second.error == nil && second.cacheDisposition == .revalidated && wire == 0
                && second.response?.status.code == 200 && second.data == first.data && (first.data?.count ?? 0) > 0,
            "revalidated response: \(second.cacheDisposition.map { "\($0)" } ?? "no disposition"), "
                + "\(second.error.map { "\($0)" } ?? "no error")"
        )
    }

    private static func describe(_ response: DataResponse<Data>) -> String {
        let status = response.response.map { "\($0.status)" } ?? "-"
        let disposition = response.cacheDisposition.map { "\($0)" } ?? "-"
        return "\(status) (\(disposition)), \(response.data?.count ?? 0) bytes"
    }
}
