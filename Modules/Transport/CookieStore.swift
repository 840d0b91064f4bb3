public import FoundationEssentials

/// Where a transport keeps the cookies it receives and sends: the seam through which the session
/// layer, an app or a test reads and changes them without knowing the transport.
///
/// The transport stores every `Set-Cookie` of a response for a request that handles cookies and
/// sends the matching ones with the next requests; callers never build a `Cookie` header
/// themselves. A store compares cookies by name, domain and path (``Cookie/hasSameIdentity(as:)``):
/// setting a cookie replaces the one with the same identity.
///
/// ```swift
/// if let store = transport.cookieStore {
///     try await store.setCookie(Cookie(name: "consent", value: "yes", domain: "example.com"))
///     let sent = try await store.cookies(for: URL(string: "https://example.com/")!)
///     print(sent.map(\.name))
/// }
/// ```
///
/// - Important: Methods never block the calling thread; a store that must reach another thread
///   awaits it. Failures are `TransportError`s (category `.shutDown` once the transport is gone,
///   `.invalidRequest` for a cookie the store cannot hold).
public protocol CookieStore: Sendable {
    /// Every cookie in the store, expired ones left out, in the store's order.
    func allCookies() async throws(TransportError) -> [Cookie]

    /// The cookies that go with a request for `url` now, in sending order (RFC 6265 §5.4).
    ///
    /// - Parameter url: The request URL.
    func cookies(for url: URL) async throws(TransportError) -> [Cookie]

    /// Stores `cookie`, replacing the cookie of the same name, domain and path; a cookie whose
    /// expiry has passed removes that cookie instead.
    ///
    /// - Parameter cookie: The cookie to store.
    func setCookie(_ cookie: Cookie) async throws(TransportError)

    /// Removes the cookie of the same name, domain and path as `cookie`, if there is one.
    ///
    /// - Parameter cookie: The cookie to remove; only its identity counts.
    func removeCookie(_ cookie: Cookie) async throws(TransportError)

    /// Removes every cookie.
    func removeAllCookies() async throws(TransportError)
}

extension CookieStore {
    /// Stores each of `cookies` in order.
    ///
    /// ```swift
    /// try await store.setCookies(savedCookies)
    /// ```
    /// - Parameter cookies: The cookies to store.
    public func setCookies(_ cookies: [Cookie]) async throws(TransportError) {
        for cookie in cookies { try await setCookie(cookie) }
    }
}
