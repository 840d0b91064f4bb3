import CourierCurl
import CourierHTTP
import CourierHTTPCache
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation
import Testing

/// The HTTP cache over libcurl against nginx's static files (ETag and Last-Modified) and httpbin's
/// caching endpoints: what the server sends back for a revalidation, and where the body comes from.
@Suite struct HTTPCacheOverCurlTests {
    /// Runs `body` with a session on a fresh transport whose cache is `cache`.
    private func withSession<Result>(
        _ cache: HTTPCache = HTTPCache(),
        _ body: (SessionManager) async throws -> Result
    ) async throws -> Result {
        let transport = CurlTestServers.transport()
        var configuration = SessionConfiguration()
        configuration.cache = cache
        let session = SessionManager(transport: transport, configuration: configuration)
        do {
            let result = try await body(session)
            await session.shutdown()
            await transport.shutdown()
            return result
        } catch {
            await session.shutdown()
            await transport.shutdown()
            throw error
        }
    }

    /// A request that must be revalidated whatever the heuristic says (a static file modified a
    /// moment ago is fresh for a tenth of that moment).
    private func revalidating(_ url: URL) throws -> HTTPRequest {
        var request = HTTPRequest(url: url)
        try request.headers.set(name: "Cache-Control", value: "no-cache")
        return request
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func nginxAnswersTheEntityTagWithANotModifiedAndTheBodyComesFromTheCache() async throws {
        let url = try #require(CurlTestServers.http).adding("/text.txt")
        let onDisk = try Data(
            contentsOf: URL(fileURLWithPath: try #require(CurlTestServers.wwwDirectory) + "/text.txt")
        )
        let (first, second) = try await withSession { session in
            (try await session.data(for: HTTPRequest(url: url)), try await session.data(for: try revalidating(url)))
        }
        #expect(first.cacheDisposition == .miss)
        #expect(first.metrics.last?.decodedBodyBytes == Int64(onDisk.count))
        let etag = try #require(first.response?.headers["ETag"])

        #expect(second.request?.headers["If-None-Match"] == etag)
        #expect(second.cacheDisposition == .revalidated)
        #expect(second.response?.status.code == 200)
        #expect(second.data == onDisk)
        // The server sent a head and no body: the 200 000 bytes came from the cache.
        #expect(second.metrics.count == 1)
        #expect(second.metrics.last?.responseBodyBytes == 0)
    }

    /// Stores responses without their `ETag`, so that only `If-Modified-Since` can be sent.
    private let withoutEntityTag = ResponseCacher(
        behavior: .modify { _, entry in
            var entry = entry
            entry.response.headers.remove(name: "ETag")
            return entry
        }
    )

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aNotModifiedWithAStrongTagTheStoredResponseLacksIsNotMerged() async throws {
        // RFC 9111 §4.3.4: nginx's 304 names its strong ETag; a stored response without it is not
        // the one confirmed, so the request goes again without conditions and the body is sent.
        let url = try #require(CurlTestServers.http).adding("/small")
        let (first, second) = try await withSession(HTTPCache(responseHandler: withoutEntityTag)) { session in
            (try await session.data(for: HTTPRequest(url: url)), try await session.data(for: try revalidating(url)))
        }
        #expect(second.metrics.count == 2)
        #expect(second.metrics.first?.responseBodyBytes == 0)
        #expect(second.metrics.last?.responseBodyBytes == 100)
        #expect(second.request?.headers.contains(name: "If-Modified-Since") == false)
        #expect(second.cacheDisposition == .miss)
        #expect(second.data == first.data)
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func httpbinAnswersIfModifiedSinceAloneWithANotModified() async throws {
        let url = try #require(CurlTestServers.httpbin).adding("/cache")
        let (first, second) = try await withSession(HTTPCache(responseHandler: withoutEntityTag)) { session in
            (try await session.data(for: HTTPRequest(url: url)), try await session.data(for: HTTPRequest(url: url)))
        }
        #expect(second.request?.headers.contains(name: "If-None-Match") == false)
        #expect(second.request?.headers["If-Modified-Since"] == first.response?.headers["Last-Modified"])
        #expect(second.cacheDisposition == .revalidated)
        #expect(second.metrics.last?.responseBodyBytes == 0)
        #expect(second.data == first.data)
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func httpbinsCacheEndpointRevalidatesWithNotModified() async throws {
        let url = try #require(CurlTestServers.httpbin).adding("/cache")
        let (first, second) = try await withSession { session in
            (try await session.data(for: HTTPRequest(url: url)), try await session.data(for: HTTPRequest(url: url)))
        }
        // Last-Modified equals Date: no heuristic freshness, so the second call asks the server.
        #expect(first.cacheDisposition == .miss)
        #expect(second.cacheDisposition == .revalidated)
        #expect(second.request?.headers.contains(name: "If-None-Match") == true)
        #expect(second.request?.headers.contains(name: "If-Modified-Since") == true)
        #expect(second.metrics.last?.responseBodyBytes == 0)
        #expect(second.data == first.data)
        #expect(second.response?.headers["Content-Type"] == "application/json")
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func httpbinsMaxAgeEndpointIsServedWithoutATransfer() async throws {
        let url = try #require(CurlTestServers.httpbin).adding("/cache/60")
        let (first, second) = try await withSession { session in
            (try await session.data(for: HTTPRequest(url: url)), try await session.data(for: HTTPRequest(url: url)))
        }
        #expect(first.response?.headers["Cache-Control"] == "public, max-age=60")
        #expect(second.cacheDisposition == .hit)
        #expect(second.metrics.isEmpty)
        #expect(second.data == first.data)
        #expect(second.response?.headers["Age"] != nil)
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func httpbinsEntityTagEndpointMatchesTheStoredTag() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let (first, second) = try await withSession { session in
            (
                try await session.data(for: HTTPRequest(url: base.adding("/etag/courier-7"))),
                try await session.data(for: HTTPRequest(url: base.adding("/etag/courier-7")))
            )
        }
        #expect(first.response?.headers["ETag"] == "courier-7")
        #expect(second.request?.headers["If-None-Match"] == "courier-7")
        #expect(second.cacheDisposition == .revalidated)
        #expect(second.metrics.last?.responseBodyBytes == 0)
        #expect(second.data == first.data)
    }
}
