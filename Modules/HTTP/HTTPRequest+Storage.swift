import FoundationEssentials

extension HTTPRequest {
    /// A request's values, held in one ``Storage`` box.
    struct Fields {
        var method: HTTPMethod
        var url: URL
        var headers: HTTPHeaders
        var body: HTTPBody
        var timeout: Duration?
        var connectTimeout: Duration?
        var idleTimeout: Duration?
        var handlesCookies: Bool?
        var maximumResponseBodySize: Int64?
        var credential: HTTPCredential?
        var cachePolicy: HTTPCachePolicy = .useProtocolPolicy
    }

    /// The copy-on-write box behind ``HTTPRequest``: copies share it, and a change goes to a box of
    /// its own first unless the changing request holds the only reference.
    ///
    /// `@unchecked Sendable`: `fields` is a `var`, but it is written only through a request that
    /// `isKnownUniquelyReferenced` found to hold the one reference to the box, so a box reachable
    /// from two requests (and so from two threads) is never written; it is the standard library's
    /// argument for `Array`'s buffer. Every field is itself `Sendable`.
    final class Storage: @unchecked Sendable {
        var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }
}

// Fails to compile if a field stops being Sendable, which the box's `@unchecked` would hide.
extension HTTPRequest.Fields: Sendable {}
