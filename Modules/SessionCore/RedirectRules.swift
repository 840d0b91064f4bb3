package import CourierHTTP
package import FoundationEssentials

/// The next request of a redirect chain (RFC 9110 §15.4), before any handler sees it.
///
/// - 301 and 302 turn a `POST` into a `GET` without a body, as browsers and URLSession do
///   (RFC 9110 §15.4.2 and §15.4.3 allow it); 303 turns every method but `HEAD` into `GET`.
/// - 307 and 308 keep the method and the body; a one-shot body cannot be sent again, which is a
///   typed error rather than an empty body.
/// - Leaving the origin (scheme, host or port) drops `Authorization`, `Cookie` and
///   `Proxy-Authorization` and the request's credential: a credential belongs to its origin.
package enum RedirectRules {
    package static let originBoundFields = ["Authorization", "Cookie", "Proxy-Authorization"]
    package static let bodyFields = ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"]

    /// The proposed next request, or why there is none.
    package static func proposal(
        from request: HTTPRequest,
        response: HTTPResponse,
        location: URL,
        allowsInsecureRedirects: Bool
    ) -> Result<HTTPRequest, SessionError.RedirectFailure> {
        if let failure = schemeFailure(
            from: request.url,
            to: location,
            allowsInsecureRedirects: allowsInsecureRedirects
        ) {
            return .failure(failure)
        }
        var next = request
        next.url = location
        let status = response.status.code
        if (status == 301 || status == 302) && request.method == .post {
            dropBody(&next, method: .get)
        } else if status == 303 && request.method != .head {
            dropBody(&next, method: .get)
        } else if (status == 307 || status == 308) && !request.body.isReplayable {
            return .failure(.bodyNotReplayable)
        }
        if !sameOrigin(request.url, location) {
            for name in originBoundFields { next.headers.remove(name: name) }
            next.credential = nil
        }
        return .success(next)
    }

    /// Why a redirect from `source` to `target` may not be followed, if it may not.
    package static func schemeFailure(from source: URL, to target: URL, allowsInsecureRedirects: Bool)
        -> SessionError.RedirectFailure?
    {
        let scheme = target.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { return .disallowedScheme(scheme) }
        if scheme == "http", source.scheme?.lowercased() == "https", !allowsInsecureRedirects {
            return .disallowedScheme(scheme)
        }
        return nil
    }

    /// Whether two URLs share scheme, host and port (RFC 6454 §4), default ports included.
    package static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            return (scheme, url.host?.lowercased() ?? "", url.port ?? (scheme == "https" ? 443 : 80))
        }
        return origin(first) == origin(second)
    }

    private static func dropBody(_ request: inout HTTPRequest, method: HTTPMethod) {
        request.method = method
        request.body = .empty
        for name in bodyFields { request.headers.remove(name: name) }
    }
}
