public import CourierHTTP
internal import CourierLocking
public import CourierSessionCore
public import CourierTransport
public import FoundationEssentials

/// A cookie store in memory that follows RFC 6265, for test doubles and tests of cookie handling.
///
/// It reads `Set-Cookie` fields as a user agent does (§5.2: `Expires` in any date format servers
/// use, `Max-Age` winning over it, `Domain`, `Path` with the default-path rule, `Secure`,
/// `HttpOnly`, `SameSite`), stores them by the rules of §5.3 (a `Domain` the request host does not
/// domain-match drops the cookie; without one the cookie is host-only; a cookie with the same name,
/// domain and path replaces the old one in place; an expired one deletes it) and picks the cookies
/// for a request by §5.4 (domain-match, path-match, `Secure` only over `https`, expiry; longest path
/// first, then oldest). It consults no public-suffix list. `SameSite` is kept but never withholds a
/// cookie: a client has no "site for cookies" to compare with.
///
/// A transport double calls ``cookieHeaderValue(for:)`` before it answers a request and
/// ``storeCookies(from:for:)`` with the response's headers, for requests that handle cookies:
///
/// ```swift
/// let store = InMemoryCookieStore()
/// let url = URL(string: "https://api.example.com/login")!
/// store.storeCookies(from: try HTTPHeaders([("Set-Cookie", "session=abc; Path=/; Secure; HttpOnly")]), for: url)
/// store.cookieHeaderValue(for: URL(string: "https://api.example.com/me")!)  // "session=abc"
/// store.cookieHeaderValue(for: URL(string: "http://api.example.com/me")!)   // nil: Secure
/// ```
///
/// Every method is safe from any thread and never blocks for longer than a lock held to copy an
/// array.
public final class InMemoryCookieStore: CookieStore {
    /// Cookies in creation order, which is the tie-breaker when cookies are sent.
    private let cookies = Lock<[Cookie]>([])
    private let now: @Sendable () -> Date

    /// Creates an empty store whose cookies expire on `clock`'s date.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let store = InMemoryCookieStore(clock: clock)
    /// store.storeCookies(setCookieFields: ["a=1; Max-Age=60"], for: url)
    /// clock.advance(by: .seconds(61))  // a=1 has expired
    /// ```
    /// - Parameter clock: The clock whose `date` judges expiry and `Max-Age`; the system's by
    ///   default, a ``ManualClock`` in tests.
    public convenience init(clock: any SessionClock = .system) {
        self.init(now: { clock.date })
    }

    /// Creates an empty store that reads the time from a closure.
    ///
    /// ```swift
    /// let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    /// let store = InMemoryCookieStore(now: { clock.withLock { $0 } })
    /// ```
    /// - Parameter now: The time now, which judges expiry and `Max-Age`.
    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    // MARK: What a transport double calls

    /// The `Cookie` request-header value for a request to `url` (`a=1; b=2`), or `nil` when no
    /// cookie matches.
    ///
    /// ```swift
    /// if let value = store.cookieHeaderValue(for: request.url) {
    ///     try request.headers.set(name: "Cookie", value: value)
    /// }
    /// ```
    /// - Parameter url: The request URL.
    public func cookieHeaderValue(for url: URL) -> String? {
        Cookie.headerValue(for: matchingCookies(for: url))
    }

    /// Stores what the `Set-Cookie` fields of `headers` set, for a response to a request for `url`,
    /// and returns the cookies the fields set (fields that RFC 6265 ignores are left out).
    ///
    /// ```swift
    /// store.storeCookies(from: response.headers, for: request.url)
    /// ```
    /// - Parameters:
    ///   - headers: The response's header fields; only `Set-Cookie` is read.
    ///   - url: The URL of the request the response answers.
    @discardableResult
    public func storeCookies(from headers: HTTPHeaders, for url: URL) -> [Cookie] {
        storeCookies(setCookieFields: headers.values(for: "Set-Cookie"), for: url)
    }

    /// Stores what each `Set-Cookie` field value sets, for a response to a request for `url`, and
    /// returns the cookies the fields set, in order (an already expired one deletes its namesake
    /// instead of being stored).
    ///
    /// ```swift
    /// store.storeCookies(setCookieFields: ["a=1; Max-Age=60", "b=2; Domain=example.com"], for: url)
    /// ```
    /// - Parameters:
    ///   - fields: `Set-Cookie` field values, without the field name.
    ///   - url: The URL of the request the response answers.
    @discardableResult
    public func storeCookies(setCookieFields fields: [String], for url: URL) -> [Cookie] {
        let date = now()
        let parsed = fields.compactMap { SetCookieParser.cookie(from: $0, for: url, now: date) }
        cookies.withLock { cookies in
            for cookie in parsed { Self.store(cookie, in: &cookies, at: date) }
        }
        return parsed
    }

    /// The cookies that go with a request to `url` now, in sending order.
    ///
    /// ```swift
    /// let names = store.matchingCookies(for: url).map(\.name)
    /// ```
    /// - Parameter url: The request URL.
    public func matchingCookies(for url: URL) -> [Cookie] {
        let date = now()
        return Cookie.matching(snapshot(at: date), for: url, at: date)
    }

    /// Every cookie that has not expired, oldest first.
    ///
    /// ```swift
    /// #expect(store.snapshot().map(\.name) == ["session"])
    /// ```
    public func snapshot() -> [Cookie] {
        snapshot(at: now())
    }

    // MARK: CookieStore

    /// Every cookie that has not expired, oldest first.
    ///
    /// ```swift
    /// let cookies = try await store.allCookies()
    /// ```
    public func allCookies() async throws(TransportError) -> [Cookie] {
        snapshot()
    }

    /// The cookies that go with a request to `url`, in sending order.
    ///
    /// ```swift
    /// let cookies = try await store.cookies(for: url)
    /// ```
    public func cookies(for url: URL) async throws(TransportError) -> [Cookie] {
        matchingCookies(for: url)
    }

    /// Stores `cookie`, replacing the one with the same name, domain and path in place; an expired
    /// `cookie` deletes it instead.
    ///
    /// ```swift
    /// try await store.setCookie(Cookie(name: "consent", value: "yes", domain: "example.com"))
    /// ```
    /// - Throws: `TransportError.Category.invalidRequest` for an empty name or domain, a path that
    ///   does not start with `/`, or a CR, LF or NUL anywhere: what no server could have set.
    public func setCookie(_ cookie: Cookie) async throws(TransportError) {
        for field in [cookie.name, cookie.value, cookie.domain, cookie.path]
        where field.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) {
            throw Self.invalid(cookie, "a cookie may not contain CR, LF or NUL")
        }
        guard !cookie.name.isEmpty else { throw Self.invalid(cookie, "the name is empty") }
        guard !cookie.domain.isEmpty else { throw Self.invalid(cookie, "the domain is empty") }
        guard cookie.path.hasPrefix("/") else { throw Self.invalid(cookie, "the path must start with /") }
        let date = now()
        cookies.withLock { Self.store(cookie, in: &$0, at: date) }
    }

    /// Removes the cookie with the name, domain and path of `cookie`.
    ///
    /// ```swift
    /// try await store.removeCookie(cookie)
    /// ```
    public func removeCookie(_ cookie: Cookie) async throws(TransportError) {
        cookies.withLock { $0.removeAll { $0.hasSameIdentity(as: cookie) } }
    }

    /// Removes every cookie.
    ///
    /// ```swift
    /// try await store.removeAllCookies()
    /// ```
    public func removeAllCookies() async throws(TransportError) {
        cookies.withLock { $0.removeAll() }
    }

    // MARK: Storage

    /// §5.3, steps 11 and 12: replace in place (the old creation time stays), append a new cookie,
    /// and let an expired cookie only delete; expired cookies are dropped on the way.
    private static func store(_ cookie: Cookie, in cookies: inout [Cookie], at date: Date) {
        cookies.removeAll { $0.expiry.map { $0 <= date } ?? false }
        let expired = cookie.expiry.map { $0 <= date } ?? false
        if let index = cookies.firstIndex(where: { $0.hasSameIdentity(as: cookie) }) {
            if expired { cookies.remove(at: index) } else { cookies[index] = cookie }
        } else if !expired {
            cookies.append(cookie)
        }
    }

    private func snapshot(at date: Date) -> [Cookie] {
        cookies.withLock { $0 }.filter { $0.expiry.map { $0 > date } ?? true }
    }

    private static func invalid(_ cookie: Cookie, _ reason: String) -> TransportError {
        TransportError(category: .invalidRequest, message: "cookie \(cookie.name.debugDescription): \(reason)")
    }
}
