internal import CourierHTTP
internal import CourierSessionCore
internal import FoundationEssentials

/// A stored entry judged at one instant: its age, its freshness lifetime and whether a request's
/// directives let it be used without the server (RFC 9111 §4.2 and §5.2.1).
struct Judgement {
    let entry: HTTPCacheEntry
    let age: Double
    let lifetime: Double
    let responseControl: CacheControl

    init(entry: HTTPCacheEntry, now: Date) {
        self.entry = entry
        age = Freshness.currentAge(of: entry, now: now)
        lifetime = Freshness.lifetime(of: entry.response, responseTime: entry.responseTime)
        responseControl = CacheControl(entry.response.headers)
    }

    var isFresh: Bool { lifetime > age }

    /// `must-revalidate` and `no-cache` forbid using the response stale (RFC 9111 §5.2.2.2, §5.2.2.4).
    var requiresRevalidationWhenStale: Bool {
        responseControl.has("must-revalidate") || responseControl.has("no-cache")
    }

    /// Whether the entry answers a request with these directives without validation.
    func satisfies(_ request: CacheControl, pragmaNoCache: Bool) -> Bool {
        if responseControl.has("no-cache") || request.has("no-cache") || pragmaNoCache { return false }
        // RFC 8246: while fresh, an immutable response needs no revalidation even when the request
        // asks for a young one (a reload's max-age=0).
        if isFresh, responseControl.has("immutable") { return true }
        if let maxAge = request.wellFormedSeconds("max-age"), age > Double(maxAge) { return false }
        if let minFresh = request.wellFormedSeconds("min-fresh"), lifetime - age < Double(minFresh) { return false }
        if isFresh { return true }
        guard request.has("max-stale"), !requiresRevalidationWhenStale else { return false }
        guard let allowed = request.wellFormedSeconds("max-stale") else { return true }
        return age - lifetime <= Double(allowed)
    }

    /// The stored response with the `Age` RFC 9111 §5.1 asks a cache to send.
    var served: CachedResponse {
        var response = entry.response
        try? response.headers.set(name: "Age", value: String(Int(age.rounded(.down))))
        return CachedResponse(response: response, body: entry.body)
    }
}
