public import CourierHTTP
public import FoundationEssentials

/// The next request of a redirect chain (RFC 9110 §15.4), before any handler sees it: the rules a
/// session applies to every redirect, callable on their own with plain values.
///
/// - 301 and 302 turn a `POST` into a `GET` without a body, as browsers and URLSession do
///   (RFC 9110 §15.4.2 and §15.4.3 allow it); 303 turns every method but `HEAD` into `GET`.
///   Dropping the body drops its fields too (``bodyFields``).
/// - 307 and 308 keep the method and the body; a one-shot body cannot be sent again, which is a
///   typed error rather than an empty body.
/// - Leaving the origin (scheme, host or port) drops `Authorization`, `Cookie` and
///   `Proxy-Authorization` (``originBoundFields``) and the request's credential: a credential
///   belongs to its origin.
/// - Only `http` and `https` targets are followed, and `https` to `http` only when insecure
///   redirects are allowed (``schemeFailure(from:to:allowsInsecureRedirects:)``).
///
/// ```swift
/// let login = HTTPRequest(
///     method: .post,
///     url: URL(string: "https://api.example.com/login")!,
///     body: HTTPBody(Data("user=a".utf8))
/// )
/// let next = try RedirectRules.proposal(
///     from: login,
///     response: HTTPResponse(status: HTTPStatus(code: 302)),
///     location: URL(string: "https://api.example.com/home")!,
///     allowsInsecureRedirects: false
/// ).get()
/// print(next.method, next.body.kind)  // GET empty
/// ```
public enum RedirectRules {
    /// The fields that belong to the request's origin and are dropped when a redirect leaves it:
    /// `Authorization`, `Cookie` and `Proxy-Authorization`.
    ///
    /// ```swift
    /// RedirectRules.originBoundFields.contains("Authorization")  // true
    /// ```
    public static let originBoundFields = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// The fields that describe the body and are dropped with it when a redirect turns the method
    /// into `GET`: `Content-Type`, `Content-Length`, `Content-Encoding` and `Transfer-Encoding`.
    ///
    /// ```swift
    /// RedirectRules.bodyFields.contains("Content-Type")  // true
    /// ```
    public static let bodyFields = ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"]

    /// The request a redirect proposes, or why the redirect may not be followed.
    ///
    /// ```swift
    /// switch RedirectRules.proposal(from: request, response: response, location: target, allowsInsecureRedirects: false) {
    /// case .success(let next): print("follow to", next.url)
    /// case .failure(.bodyNotReplayable): print("a 307 cannot send a one-shot body again")
    /// case .failure(let reason): print("not followed:", reason)
    /// }
    /// ```
    /// - Parameters:
    ///   - request: The request the redirect answers.
    ///   - response: The redirect response; its status picks the method and body rule.
    ///   - location: The redirect's target, already resolved against `request.url`.
    ///   - allowsInsecureRedirects: Whether an `https` request may be sent on to `http`.
    /// - Returns: The next request, with the method, body, fields and credential the rules leave;
    ///   or `disallowedScheme` for a target that is not `http`/`https` (or a forbidden downgrade),
    ///   and `bodyNotReplayable` for a 307 or 308 of a one-shot body.
    public static func proposal(
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

    /// Why a redirect from `source` to `target` may not be followed, if it may not: a target whose
    /// scheme is not `http` or `https`, or `https` to `http` without permission.
    ///
    /// ```swift
    /// RedirectRules.schemeFailure(
    ///     from: URL(string: "https://a.example")!,
    ///     to: URL(string: "http://a.example")!,
    ///     allowsInsecureRedirects: false
    /// )  // .disallowedScheme("http")
    /// ```
    /// - Parameters:
    ///   - source: The URL of the request that was redirected.
    ///   - target: The URL the redirect (or a handler's modified request) goes to.
    ///   - allowsInsecureRedirects: Whether `https` to `http` is allowed.
    /// - Returns: `disallowedScheme` with the target's lowercased scheme, or `nil` when it may be
    ///   followed.
    public static func schemeFailure(from source: URL, to target: URL, allowsInsecureRedirects: Bool)
        -> SessionError.RedirectFailure?
    {
        let scheme = target.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else { return .disallowedScheme(scheme) }
        if scheme == "http", source.scheme?.lowercased() == "https", !allowsInsecureRedirects {
            return .disallowedScheme(scheme)
        }
        return nil
    }

    /// Whether two URLs share scheme, host and port (RFC 6454 §4), with the default ports of `http`
    /// (80) and `https` (443) filled in and scheme and host compared without case.
    ///
    /// ```swift
    /// RedirectRules.sameOrigin(URL(string: "https://A.example/x")!, URL(string: "https://a.example:443/y")!)  // true
    /// ```
    /// - Parameters:
    ///   - first: One URL.
    ///   - second: The other.
    /// - Returns: Whether they are of the same origin.
    public static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
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
