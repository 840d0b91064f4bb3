import CourierHTTP
import CourierHTTPCache
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Foundation
import Synchronization
import Testing

/// The cache in a session over MockTransport, with the clock moved by hand.
@Suite struct HTTPCacheSessionTests {
    private let url = URL(string: "https://api.example.com/items")!
    private let clock = ManualClock(startDate: Date(timeIntervalSince1970: 1_700_000_000))
    private let transport = MockTransport()

    private func session(
        _ cache: HTTPCache? = nil,
        monitors: [any EventMonitor] = []
    ) -> (SessionManager, HTTPCache) {
        let cache = cache ?? HTTPCache(store: MemoryCacheStore(), clock: clock)
        var configuration = SessionConfiguration()
        configuration.cache = cache
        return (SessionManager(transport: transport, configuration: configuration, eventMonitors: monitors), cache)
    }

    private func get(_ session: SessionManager, _ change: (inout HTTPRequest) throws -> Void = { _ in }) async throws
        -> DataResponse<Data>
    {
        var request = HTTPRequest(url: url)
        try change(&request)
        return await session.response(for: request, serializer: DataResponseSerializer())
    }

    private func reply(_ headers: [String: String], status: Int = 200, body: String = "payload") -> MockTransport.Reply
    {
        MockTransport.Reply(status: status, headers: headers, body: Data(body.utf8))
    }

    /// Stores a first response with `headers` through `session` (its stub answers once).
    private func prime(_ session: SessionManager, _ headers: [String: String]) async throws {
        transport.stub(url: url.absoluteString, reply: reply(headers), times: 1)
        _ = try await get(session)
    }

    // MARK: Fresh responses

    @Test func aFreshResponseIsServedWithoutATransferAndWithItsAge() async throws {
        let monitor = RecordingEventMonitor()
        let (session, _) = session(monitors: [monitor])
        transport.stub(
            url: url.absoluteString,
            reply: reply(["Cache-Control": "max-age=60", "Date": httpDate(clock.date)])
        )

        let first = try await get(session)
        clock.advance(by: .seconds(30))
        let second = try await get(session)

        #expect(first.cacheDisposition == .miss)
        #expect(second.cacheDisposition == .hit)
        #expect(second.data == Data("payload".utf8))
        #expect(second.response?.headers["Age"] == "30")
        #expect(second.metrics.isEmpty)
        #expect(transport.requests.count == 1)
        await session.invalidate(cancelingTasks: false)
        let dispositions = monitor.events(of: .taskCompleted).map(\.cacheDisposition)
        #expect(dispositions == [.miss, .hit])
        #expect(monitor.events(of: .responseReceived).last?.cacheDisposition == .hit)
        #expect(monitor.events(of: .requestStarted).count == 1)
    }

    @Test func aSessionWithoutACacheReportsNoDisposition() async throws {
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=60"]))
        let plain = SessionManager(transport: transport)
        let response = await plain.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.cacheDisposition == nil)
        _ = await plain.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(transport.requests.count == 2)
    }

    @Test func theHeuristicKeepsAResponseFreshForATenthOfItsAge() async throws {
        let (session, _) = session()
        transport.stub(
            url: url.absoluteString,
            reply: reply(["Date": httpDate(clock.date), "Last-Modified": httpDate(clock.date, plus: -10 * 86_400)])
        )
        _ = try await get(session)
        clock.advance(by: .seconds(86_000))
        #expect(try await get(session).cacheDisposition == .hit)
        clock.advance(by: .seconds(1_000))
        let stale = try await get(session)
        #expect(stale.cacheDisposition == .miss)
        #expect(
            transport.requests.last?.request.headers["If-Modified-Since"]
                == httpDate(clock.date, plus: -87_000 - 10 * 86_400)
        )
    }

    // MARK: Revalidation

    @Test func aStaleResponseIsRevalidatedAndTheNotModifiedIsMerged() async throws {
        let (session, _) = session()
        try await prime(
            session,
            ["Cache-Control": "max-age=60", "ETag": "\"v1\"", "Content-Type": "text/plain", "X-Version": "1"]
        )
        clock.advance(by: .seconds(61))
        transport.stub(
            matching: { $0.headers["If-None-Match"] == "\"v1\"" },
            reply: reply(["Cache-Control": "max-age=600", "ETag": "\"v1\"", "X-Version": "2"], status: 304, body: "")
        )

        let revalidated = try await get(session)
        #expect(revalidated.cacheDisposition == .revalidated)
        #expect(revalidated.response?.status.code == 200)
        #expect(revalidated.data == Data("payload".utf8))
        #expect(revalidated.response?.headers["X-Version"] == "2")
        #expect(revalidated.response?.headers["Content-Type"] == "text/plain")
        #expect(revalidated.metrics.count == 1)
        #expect(revalidated.request?.headers["If-None-Match"] == "\"v1\"")

        // The merged max-age=600 now holds.
        clock.advance(by: .seconds(500))
        #expect(try await get(session).cacheDisposition == .hit)
        #expect(transport.requests.count == 2)
    }

    @Test func aNotModifiedForAnotherEntityTagSendsTheRequestAgainWithoutConditions() async throws {
        let (session, _) = session()
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=0", "ETag": "\"v1\""]))
        _ = try await get(session)
        transport.stub(
            matching: { $0.headers.contains(name: "If-None-Match") },
            reply: reply(["ETag": "\"v9\""], status: 304, body: "")
        )
        let response = try await get(session)
        #expect(transport.requests.count == 3)
        #expect(!transport.requests[2].request.headers.contains(name: "If-None-Match"))
        #expect(response.response?.status.code == 200)
        #expect(response.cacheDisposition == .miss)
        #expect(response.retryCount == 0)
    }

    @Test func noCacheIsStoredButAlwaysRevalidated() async throws {
        let (session, _) = session()
        transport.stub(
            url: url.absoluteString,
            reply: reply(["Cache-Control": "no-cache, max-age=600", "ETag": "\"a\""])
        )
        _ = try await get(session)
        transport.stub(matching: { $0.headers["If-None-Match"] == "\"a\"" }, reply: reply([:], status: 304, body: ""))
        #expect(try await get(session).cacheDisposition == .revalidated)
        #expect(transport.requests.count == 2)
    }

    @Test func aRequestsOwnNoCacheOrMaxAgeForcesRevalidationUnlessImmutable() async throws {
        let (session, _) = session()
        try await prime(session, ["Cache-Control": "max-age=600", "ETag": "\"a\""])
        transport.stub(matching: { $0.headers["If-None-Match"] == "\"a\"" }, reply: reply([:], status: 304, body: ""))
        clock.advance(by: .seconds(5))
        let reload = try await get(session) { try $0.headers.set(name: "Cache-Control", value: "max-age=0") }
        #expect(reload.cacheDisposition == .revalidated)
        let pragma = try await get(session) { try $0.headers.set(name: "Pragma", value: "no-cache") }
        #expect(pragma.cacheDisposition == .revalidated)
        #expect(transport.requests.count == 3)

        let immutableURL = URL(string: "https://api.example.com/static/app.js")!
        transport.stub(url: immutableURL.absoluteString, reply: reply(["Cache-Control": "max-age=600, immutable"]))
        _ = await session.response(for: HTTPRequest(url: immutableURL), serializer: DataResponseSerializer())
        clock.advance(by: .seconds(5))
        var reloadImmutable = HTTPRequest(url: immutableURL)
        try reloadImmutable.headers.set(name: "Cache-Control", value: "max-age=0")
        let kept = await session.response(for: reloadImmutable, serializer: DataResponseSerializer())
        #expect(kept.cacheDisposition == .hit)
        #expect(transport.requests.count == 4)
    }

    @Test func theRequestsMaxStaleMinFreshAndOnlyIfCachedAreHonoured() async throws {
        let (session, _) = session()
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=100"]))
        _ = try await get(session)
        clock.advance(by: .seconds(90))
        // 10 s of freshness left is less than the 20 asked for: sent, and stored again.
        let tooOld = try await get(session) { try $0.headers.set(name: "Cache-Control", value: "min-fresh=20") }
        #expect(tooOld.cacheDisposition == .miss)
        #expect(transport.requests.count == 2)

        clock.advance(by: .seconds(130))  // 30 s stale
        let allowed = try await get(session) { try $0.headers.set(name: "Cache-Control", value: "max-stale=60") }
        #expect(allowed.cacheDisposition == .hit)
        let onlyCached = try await get(session) {
            try $0.headers.set(name: "Cache-Control", value: "max-stale=10, only-if-cached")
        }
        #expect(onlyCached.error?.kind == .notCached)
        #expect(transport.requests.count == 2)
    }

    // MARK: What is not stored

    @Test func noStoreIsNeverStored() async throws {
        let (session, cache) = session()
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "no-store, max-age=600"]))
        _ = try await get(session)
        #expect(try await get(session).cacheDisposition == .miss)
        #expect(transport.requests.count == 2)
        #expect(await cache.store.entry(forKey: HTTPCache.key(for: HTTPRequest(url: url))) == nil)
    }

    @Test func aBodyAboveTheLimitIsNotStored() async throws {
        let (session, _) = session(HTTPCache(store: MemoryCacheStore(), maximumBodySize: 7, clock: clock))
        let large = URL(string: "https://api.example.com/large")!
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=600"], body: "1234567"))
        transport.stub(url: large.absoluteString, reply: reply(["Cache-Control": "max-age=600"], body: "12345678"))
        _ = try await get(session)
        #expect(try await get(session).cacheDisposition == .hit)
        _ = await session.response(for: HTTPRequest(url: large), serializer: DataResponseSerializer())
        let again = await session.response(for: HTTPRequest(url: large), serializer: DataResponseSerializer())
        #expect(again.cacheDisposition == .miss)
        #expect(again.data?.count == 8)
    }

    @Test func aDifferentVaryingFieldGoesToTheNetwork() async throws {
        let (session, _) = session()
        transport.stub(
            url: url.absoluteString,
            reply: reply(["Cache-Control": "max-age=600", "Vary": "Accept-Language"])
        )
        _ = try await get(session) { try $0.headers.set(name: "Accept-Language", value: "en") }
        let same = try await get(session) { try $0.headers.set(name: "Accept-Language", value: "en") }
        let other = try await get(session) { try $0.headers.set(name: "Accept-Language", value: "fr") }
        #expect(same.cacheDisposition == .hit)
        #expect(other.cacheDisposition == .miss)
        #expect(transport.requests.count == 2)
    }

    @Test func aServerErrorToARevalidationKeepsTheStoredResponse() async throws {
        let (session, _) = session()
        try await prime(session, ["Cache-Control": "max-age=10", "ETag": "\"a\""])
        clock.advance(by: .seconds(60))
        transport.stub(
            matching: { $0.headers["If-None-Match"] == "\"a\"" },
            reply: reply([:], status: 503, body: "busy")
        )
        let failed = try await get(session)
        #expect(failed.response?.status.code == 503)
        #expect(failed.cacheDisposition == .miss)
        let stale = try await get(session) { $0.cachePolicy = .returnCachedElseLoad }
        #expect(stale.cacheDisposition == .hit)
        #expect(stale.data == Data("payload".utf8))
    }

    @Test func aNewResponseThatMayNotBeStoredRemovesTheStoredOne() async throws {
        let (session, _) = session()
        try await prime(session, ["Cache-Control": "max-age=10", "ETag": "\"a\""])
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "no-store"]))
        _ = try await get(session) { $0.cachePolicy = .reloadIgnoringCache }
        let only = try await get(session) { $0.cachePolicy = .cacheOnly }
        #expect(only.error?.kind == .notCached)
    }

    // MARK: Policies

    @Test func cacheOnlyWithNothingStoredFailsWithoutATransfer() async throws {
        let (session, _) = session()
        let response = try await get(session) { $0.cachePolicy = .cacheOnly }
        #expect(response.error?.kind == .notCached)
        #expect(response.error?.urlErrorCode == -1008)
        #expect(transport.requests.isEmpty)
    }

    @Test func returnCachedElseLoadServesStaleUnlessMustRevalidate() async throws {
        let (session, _) = session()
        let strict = URL(string: "https://api.example.com/strict")!
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=10"]))
        transport.stub(url: strict.absoluteString, reply: reply(["Cache-Control": "max-age=10, must-revalidate"]))
        _ = try await get(session)
        _ = await session.response(for: HTTPRequest(url: strict), serializer: DataResponseSerializer())
        clock.advance(by: .seconds(3600))

        let stale = try await get(session) { $0.cachePolicy = .returnCachedElseLoad }
        #expect(stale.cacheDisposition == .hit)
        #expect(stale.response?.headers["Age"] == "3600")
        var strictRequest = HTTPRequest(url: strict)
        strictRequest.cachePolicy = .returnCachedElseLoad
        let reloaded = await session.response(for: strictRequest, serializer: DataResponseSerializer())
        #expect(reloaded.cacheDisposition == .miss)
        strictRequest.cachePolicy = .cacheOnly
        clock.advance(by: .seconds(3600))
        let refused = await session.response(for: strictRequest, serializer: DataResponseSerializer())
        #expect(refused.error?.kind == .notCached)
        #expect(transport.requests.count == 3)
    }

    @Test func reloadIgnoringCacheSendsWithoutConditionsAndStores() async throws {
        let (session, _) = session()
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=600", "ETag": "\"a\""]))
        _ = try await get(session)
        let reloaded = try await get(session) { $0.cachePolicy = .reloadIgnoringCache }
        #expect(reloaded.cacheDisposition == .miss)
        #expect(transport.requests.count == 2)
        #expect(!transport.requests[1].request.headers.contains(name: "If-None-Match"))
        #expect(try await get(session).cacheDisposition == .hit)
    }

    // MARK: The response handler

    @Test func theHandlerCanVetoOrRewriteWhatIsStored() async throws {
        let (vetoing, _) = session(HTTPCache(store: MemoryCacheStore(), responseHandler: ResponseCacher.doNotCache))
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=600"]))
        _ = try await get(vetoing)
        #expect(try await get(vetoing).cacheDisposition == .miss)

        let rewriting = ResponseCacher(
            behavior: .modify { _, entry in
                var entry = entry
                try? entry.response.headers.set(name: "X-Rewritten", value: "yes")
                entry.body = Data("rewritten".utf8)
                return entry
            }
        )
        let (session, _) = session(HTTPCache(store: MemoryCacheStore(), responseHandler: rewriting, clock: clock))
        let first = try await get(session)
        let second = try await get(session)
        #expect(first.data == Data("payload".utf8))
        #expect(second.cacheDisposition == .hit)
        #expect(second.data == Data("rewritten".utf8))
        #expect(second.response?.headers["X-Rewritten"] == "yes")
    }

    // MARK: Unsafe methods (RFC 9111 §4.4)

    @Test func aSuccessfulUnsafeRequestInvalidatesItsURLAndItsLocation() async throws {
        let (session, _) = session()
        let other = URL(string: "https://api.example.com/items/7")!
        transport.stub(method: .get, url: url.absoluteString, reply: reply(["Cache-Control": "max-age=600"]))
        transport.stub(method: .get, url: other.absoluteString, reply: reply(["Cache-Control": "max-age=600"]))
        transport.stub(method: .post, url: url.absoluteString, reply: reply(["Location": "/items/7"], status: 201))
        transport.stub(method: .delete, url: url.absoluteString, reply: reply([:], status: 500))
        _ = try await get(session)
        _ = await session.response(for: HTTPRequest(url: other), serializer: DataResponseSerializer())

        let failedDelete = await session.response(
            for: HTTPRequest(method: .delete, url: url),
            serializer: DataResponseSerializer()
        )
        #expect(failedDelete.cacheDisposition == nil)
        #expect(try await get(session).cacheDisposition == .hit)

        _ = await session.response(for: HTTPRequest(method: .post, url: url), serializer: DataResponseSerializer())
        #expect(try await get(session).cacheDisposition == .miss)
        let location = await session.response(for: HTTPRequest(url: other), serializer: DataResponseSerializer())
        #expect(location.cacheDisposition == .miss)
    }

    // MARK: Bypass

    @Test func aStreamedResponseBypassesTheCache() async throws {
        let (session, _) = session()
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=600"]))
        _ = try await get(session)
        let streamed = try await session.streamingResponse(for: HTTPRequest(url: url))
        for try await _ in streamed.body {}
        #expect(transport.requests.count == 2)
    }

    @Test func aRequestWithItsOwnConditionGetsTheServersAnswer() async throws {
        let (session, _) = session()
        transport.stub(url: url.absoluteString, reply: reply(["Cache-Control": "max-age=0", "ETag": "\"a\""]))
        _ = try await get(session)
        transport.stub(
            matching: { $0.headers["If-None-Match"] == "\"mine\"" },
            reply: reply([:], status: 304, body: "")
        )
        let own = try await get(session) { try $0.headers.set(name: "If-None-Match", value: "\"mine\"") }
        #expect(own.response?.status.code == 304)
        #expect(own.cacheDisposition == nil)
    }
}
