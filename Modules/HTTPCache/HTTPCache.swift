public import CourierHTTP
public import CourierSessionCore
public import CourierTransport
public import FoundationEssentials

/// A private HTTP cache (RFC 9111) for a session: set it as `SessionConfiguration.cache`.
///
/// It stores responses to `GET` and `HEAD` that their headers allow, serves them while they are
/// fresh (`Cache-Control: max-age`, `Expires` and `Date`, `Age`, or 10 % of the time since
/// `Last-Modified` for heuristically cacheable statuses), and revalidates stale ones with
/// `If-None-Match` / `If-Modified-Since`: a `304` is merged into the stored response and the task
/// completes with the stored body. `no-store`, `no-cache`, `must-revalidate`, `private`,
/// `immutable` and `Vary` (with `*`) are honoured; `s-maxage` is a shared cache's and is ignored.
/// Each request's `cachePolicy` can bypass, prefer or require the cache. A `POST`, `PUT`, `PATCH`
/// or `DELETE` that succeeds removes what is stored for its URL (RFC 9111 §4.4).
///
/// ```swift
/// var configuration = SessionConfiguration()
/// configuration.cache = HTTPCache(store: MemoryCacheStore())
/// let session = SessionManager(transport: transport, configuration: configuration)
/// let first = try await session.data(for: request)   // cacheDisposition == .miss
/// let second = try await session.data(for: request)  // .hit while fresh, else .revalidated or .miss
/// ```
///
/// What it does not do: one variant is kept per URL (the latest response, whatever its `Vary`);
/// requests with a `Range` or a conditional field of their own go to the network untouched;
/// partial (`206`) and redirect (`3xx`) responses are not stored; a stale response is never served
/// when the server cannot be reached.
public final class HTTPCache: ResponseCaching {
    /// Where the entries are kept.
    public let store: any HTTPCacheStore
    /// The largest body stored; longer ones pass through unstored.
    public let maximumBodySize: Int
    /// Decides what is stored, when set.
    public let responseHandler: (any CachedResponseHandler)?
    private let clock: @Sendable () -> Date

    /// Creates a cache.
    ///
    /// ```swift
    /// let cache = HTTPCache(store: try DiskCacheStore(named: "com.example.http"), maximumBodySize: 4 << 20)
    /// ```
    /// - Parameters:
    ///   - store: Where entries are kept; a 20 MiB ``MemoryCacheStore`` by default.
    ///   - maximumBodySize: The largest body stored; 1 MiB by default.
    ///   - responseHandler: Vetoes or rewrites what is stored (Alamofire's
    ///     `CachedResponseHandler`); `nil` stores what the rules allow.
    ///   - clock: Where the wall-clock time of response times, ages and freshness is read; the
    ///     system's by default, `ManualClock` (in `CourierTesting`) in tests.
    public convenience init(
        store: any HTTPCacheStore = MemoryCacheStore(),
        maximumBodySize: Int = 1 << 20,
        responseHandler: (any CachedResponseHandler)? = nil,
        clock: any SessionClock = .system
    ) {
        self.init(store: store, maximumBodySize: maximumBodySize, responseHandler: responseHandler) { clock.date }
    }

    /// Creates a cache that reads the time from a closure.
    ///
    /// ```swift
    /// let cache = HTTPCache(store: MemoryCacheStore(), clock: { Date(timeIntervalSince1970: 1_800_000_000) })
    /// ```
    /// - Parameters:
    ///   - store: Where entries are kept.
    ///   - maximumBodySize: The largest body stored; 1 MiB by default.
    ///   - responseHandler: Vetoes or rewrites what is stored; `nil` stores what the rules allow.
    ///   - clock: The wall-clock time now.
    public init(
        store: any HTTPCacheStore,
        maximumBodySize: Int = 1 << 20,
        responseHandler: (any CachedResponseHandler)? = nil,
        clock: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.maximumBodySize = maximumBodySize
        self.responseHandler = responseHandler
        self.clock = clock
    }

    /// The key an entry for `request` is stored under: the method and the URL without its fragment.
    ///
    /// ```swift
    /// HTTPCache.key(for: HTTPRequest(url: URL(string: "https://example.com/a#top")!))  // "GET https://example.com/a"
    /// ```
    /// - Parameter request: The request.
    /// - Returns: The key.
    public static func key(for request: HTTPRequest) -> String {
        key(method: request.method, url: request.url)
    }

    private static func key(method: HTTPMethod, url: URL) -> String {
        var text = url.absoluteString
        if let hash = text.firstIndex(of: "#") { text = String(text[..<hash]) }
        return "\(method.rawValue) \(text)"
    }

    /// Removes every stored response.
    ///
    /// ```swift
    /// await cache.removeAll()
    /// ```
    public func removeAll() async {
        await store.removeAll()
    }

    // MARK: ResponseCaching

    /// Serves a usable stored response, asks for revalidation of a stale one, or sends the request.
    ///
    /// ```swift
    /// if case .serve(let cached) = await cache.lookup(request) { print(cached.response.headers["Age"] ?? "0") }
    /// ```
    public func lookup(_ request: HTTPRequest) async -> CacheLookup {
        guard Self.takesPart(request), request.cachePolicy != .reloadIgnoringCache else { return .send }
        let requestControl = CacheControl(request.headers)
        let onlyIfCached = request.cachePolicy == .cacheOnly || requestControl.has("only-if-cached")
        guard let entry = await store.entry(forKey: Self.key(for: request)), VaryMatching.matches(entry, request)
        else { return onlyIfCached ? .notCached : .send }
        let judgement = Judgement(entry: entry, now: clock())
        switch request.cachePolicy {
        case .returnCachedElseLoad, .cacheOnly:
            if judgement.isFresh && !judgement.responseControl.has("no-cache")
                || !judgement.requiresRevalidationWhenStale
            {
                return .serve(judgement.served)
            }
        case .useProtocolPolicy, .reloadIgnoringCache:
            if judgement.satisfies(requestControl, pragmaNoCache: Self.pragmaNoCache(request)) {
                return .serve(judgement.served)
            }
        }
        if onlyIfCached { return .notCached }
        guard let conditional = Self.conditional(request, for: entry.response) else { return .send }
        return .revalidate(CachedResponse(response: entry.response, body: entry.body), conditionalRequest: conditional)
    }

    /// Merges a `304` into the stored response, stores a new response when the rules allow, or
    /// invalidates the URL of a successful unsafe request.
    ///
    /// ```swift
    /// let update = await cache.receive(response, body: body, for: request, revalidating: nil, metrics: nil)
    /// ```
    public func receive(
        _ response: HTTPResponse,
        body: Data,
        for request: HTTPRequest,
        revalidating stored: CachedResponse?,
        metrics: TransferMetrics?
    ) async -> CacheUpdate {
        let responseTime = clock()
        let requestTime = responseTime - (metrics.map { Self.seconds($0.total) } ?? 0)
        guard Self.takesPart(request) else {
            if !Self.isSafe(request.method), (200..<400).contains(response.status.code) {
                await invalidate(after: request, response: response)
            }
            return .use(CachedResponse(response: response, body: body), nil)
        }
        let key = Self.key(for: request)
        if response.status.code == 304, let stored {
            guard NotModifiedMerge.selects(response, stored.response) else { return .resendUnconditionally }
            let merged = NotModifiedMerge.merge(response, into: stored.response)
            let entry = HTTPCacheEntry(
                response: merged,
                body: stored.body,
                requestTime: requestTime,
                responseTime: responseTime,
                varyingRequestFields: VaryMatching.fields(of: request, for: merged)
            )
            await write(entry, forKey: key, request: request)
            return .use(CachedResponse(response: merged, body: stored.body), .revalidated)
        }
        if isStorable(response, body: body, for: request, responseTime: responseTime) {
            var kept = response
            kept.headers = NotModifiedMerge.storable(response.headers)
            let entry = HTTPCacheEntry(
                response: kept,
                body: body,
                requestTime: requestTime,
                responseTime: responseTime,
                varyingRequestFields: VaryMatching.fields(of: request, for: response)
            )
            await write(entry, forKey: key, request: request)
        } else if (200..<300).contains(response.status.code) || CacheControl(response.headers).has("no-store") {
            // A new representation that may not be stored supersedes the stored one; an error
            // (a 503 to a revalidation, say) leaves it for a later request.
            await store.removeEntry(forKey: key)
        }
        return .use(CachedResponse(response: response, body: body), .miss)
    }

    // MARK: Rules

    /// Whether the cache handles the request at all: `GET` and `HEAD` without a range or a
    /// conditional field of the caller's own (the caller then validates its own copy).
    private static func takesPart(_ request: HTTPRequest) -> Bool {
        guard request.method == .get || request.method == .head else { return false }
        let own = ["Range", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"]
        return !own.contains { request.headers.contains(name: $0) }
    }

    private static func isSafe(_ method: HTTPMethod) -> Bool {
        [HTTPMethod.get, .head, .options, .trace].contains(method)
    }

    /// `Pragma: no-cache` counts only in a request without `Cache-Control` (RFC 9111 §5.4).
    private static func pragmaNoCache(_ request: HTTPRequest) -> Bool {
        !request.headers.contains(name: "Cache-Control")
            && request.headers.values(for: "Pragma").contains { $0.lowercased().contains("no-cache") }
    }

    /// Whether RFC 9111 §3 lets a private cache store the response (and it is worth storing).
    private func isStorable(_ response: HTTPResponse, body: Data, for request: HTTPRequest, responseTime: Date) -> Bool
    {
        let code = response.status.code
        guard (200..<300).contains(code) && code != 206 || (400..<600).contains(code) else { return false }
        let control = CacheControl(response.headers)
        guard !control.has("no-store"), !CacheControl(request.headers).has("no-store"),
            !VaryMatching.variesOnEverything(response), body.count <= maximumBodySize
        else { return false }
        let explicit =
            control.has("max-age") || response.headers.contains(name: "Expires") || control.has("public")
            || control.has("private")
        guard explicit || Freshness.heuristicallyCacheableStatuses.contains(code) else { return false }
        let hasValidator = response.headers.contains(name: "ETag") || response.headers.contains(name: "Last-Modified")
        return hasValidator || Freshness.lifetime(of: response, responseTime: responseTime) > 0
    }

    /// The request with the stored response's validators, or `nil` when it has none.
    private static func conditional(_ request: HTTPRequest, for stored: HTTPResponse) -> HTTPRequest? {
        var conditional = request
        // The values come from a stored response's fields, which held no CR, LF or NUL: `set`
        // cannot refuse them.
        if let tag = stored.headers["ETag"] {
            try? conditional.headers.set(name: "If-None-Match", value: tag)
        }
        if let modified = stored.headers["Last-Modified"] {
            try? conditional.headers.set(name: "If-Modified-Since", value: modified)
        }
        return conditional.headers.count == request.headers.count ? nil : conditional
    }

    private func write(_ entry: HTTPCacheEntry, forKey key: String, request: HTTPRequest) async {
        var kept: HTTPCacheEntry? = entry
        if let responseHandler { kept = await responseHandler.entryToStore(entry, for: request) }
        guard let kept, kept.body.count <= maximumBodySize else {
            await store.removeEntry(forKey: key)
            return
        }
        await store.store(kept, forKey: key)
    }

    /// RFC 9111 §4.4: the target URL, and the `Location` and `Content-Location` URLs of the same
    /// origin.
    private func invalidate(after request: HTTPRequest, response: HTTPResponse) async {
        var urls = [request.url]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name],
                let url = URL(string: value.trimmingSpaces(), relativeTo: request.url)
            else { continue }
            let absolute = url.absoluteURL
            if absolute.scheme == request.url.scheme, absolute.host() == request.url.host(),
                absolute.port == request.url.port
            {
                urls.append(absolute)
            }
        }
        for url in urls {
            await store.removeEntry(forKey: Self.key(method: .get, url: url))
            await store.removeEntry(forKey: Self.key(method: .head, url: url))
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
