internal import CourierHTTP

/// How a `304 Not Modified` updates the stored response it confirms (RFC 9111 §3.2 and §4.3.4).
enum NotModifiedMerge {
    /// Fields a cache never stores (RFC 9111 §3.1): the hop-by-hop ones.
    static let hopByHopFields = ["Connection", "Proxy-Connection", "Keep-Alive", "TE", "Transfer-Encoding", "Upgrade"]

    /// Fields a `304` never updates: the stored body's length and coding depend on them
    /// (RFC 9111 §3.2 names `Content-Length`; the others describe the stored bytes too).
    static let bodyDescribingFields = ["Content-Length", "Content-Encoding", "Content-Range", "Transfer-Encoding"]

    /// `headers` without the hop-by-hop fields and the fields `Connection` names.
    static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        let named = headers.values(for: "Connection").flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces() }
        var kept = HTTPHeaders()
        for field in headers
        where !(hopByHopFields + named).contains(where: { HTTPHeaders.namesMatch($0, field.name) }) {
            kept.add(field)
        }
        return kept
    }

    /// Whether the `304` selects `stored` (RFC 9111 §4.3.4): its entity tag when it has one
    /// (compared weakly, as RFC 9110 §8.8.3.2 allows for a `GET` validator), else its
    /// `Last-Modified`, else it selects the one stored response that was revalidated.
    static func selects(_ notModified: HTTPResponse, _ stored: HTTPResponse) -> Bool {
        if let tag = notModified.headers["ETag"] {
            guard let storedTag = stored.headers["ETag"] else { return false }
            return opaqueTag(tag) == opaqueTag(storedTag)
        }
        if let modified = notModified.headers["Last-Modified"] {
            return stored.headers["Last-Modified"]?.trimmingSpaces() == modified.trimmingSpaces()
        }
        return true
    }

    /// The stored response with the `304`'s fields in place of its own: each field the `304`
    /// carries replaces every line of that name, except the hop-by-hop and body-describing ones.
    static func merge(_ notModified: HTTPResponse, into stored: HTTPResponse) -> HTTPResponse {
        let excluded = hopByHopFields + bodyDescribingFields
        let updates = storable(notModified.headers).fields.filter { field in
            !excluded.contains { HTTPHeaders.namesMatch($0, field.name) }
        }
        var headers = HTTPHeaders()
        for field in stored.headers where !updates.contains(where: { HTTPHeaders.namesMatch($0.name, field.name) }) {
            headers.add(field)
        }
        for field in updates { headers.add(field) }
        var merged = stored
        merged.headers = headers
        return merged
    }

    private static func opaqueTag(_ tag: String) -> String {
        let trimmed = tag.trimmingSpaces()
        return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
    }
}
