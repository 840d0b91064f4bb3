public import FoundationEssentials

/// One HTTP cookie as a cookie store keeps it (RFC 6265 §5.3).
///
/// A plain value: stores hand it out and take it in; a transport applies matching cookies to its
/// requests itself. ``isHostOnly`` is the RFC's host-only flag: a cookie set without a `Domain`
/// attribute goes back only to the exact host that set it, while one with a `Domain` attribute also
/// goes to that domain's subdomains.
///
/// ```swift
/// let cookie = Cookie(name: "session", value: "abc", domain: "api.example.com", path: "/", isSecure: true)
/// try await transport.cookieStore?.setCookie(cookie)
/// ```
///
/// ``sameSite`` is informational: it is what the server asked for, kept so that it can be shown and
/// written back, but a client that makes every request on its own behalf has no "site for cookies"
/// to compare with (the same-site requests of the RFC 6265bis draft), so no Courier store or
/// transport withholds a cookie because of it.
public struct Cookie: Sendable, Hashable, Codable {
    /// The `SameSite` attribute a server set (defined by the RFC 6265bis draft, not by RFC 6265).
    public enum SameSite: String, Sendable, Hashable, Codable {
        /// `SameSite=Strict`.
        case strict = "Strict"
        /// `SameSite=Lax`.
        case lax = "Lax"
        /// `SameSite=None` (not named `none`, which an optional would read as `nil`).
        case noRestriction = "None"
    }

    /// The cookie's name.
    public var name: String
    /// The cookie's value, as the server sent it (no decoding).
    public var value: String
    /// The host or domain the cookie belongs to: lower case, without a leading dot.
    public var domain: String
    /// The path prefix of the URLs the cookie is sent to; `/` for every path.
    public var path: String
    /// When the cookie expires; `nil` for a session cookie, which lives as long as its store.
    public var expiry: Date?
    /// Whether the cookie is sent over `https` only.
    public var isSecure: Bool
    /// Whether the cookie was meant for HTTP only, out of reach of scripts (informational here).
    public var isHTTPOnly: Bool
    /// Whether the cookie goes back to ``domain`` exactly (`true`) or to its subdomains as well.
    public var isHostOnly: Bool
    /// The `SameSite` attribute, when the server set one; informational (see the type's discussion).
    public var sameSite: SameSite?

    /// Creates a cookie.
    ///
    /// ```swift
    /// let cookie = Cookie(name: "theme", value: "dark", domain: "example.com", isHostOnly: false)
    /// ```
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - domain: The host or domain; lower-cased, and a leading dot is dropped.
    ///   - path: The path prefix; `/` by default.
    ///   - expiry: The expiry date; `nil` (the default) for a session cookie.
    ///   - isSecure: Whether the cookie goes over `https` only.
    ///   - isHTTPOnly: Whether the cookie is HTTP-only.
    ///   - isHostOnly: Whether the cookie goes to `domain` exactly; `true` by default.
    ///   - sameSite: The `SameSite` attribute.
    public init(
        name: String,
        value: String,
        domain: String,
        path: String = "/",
        expiry: Date? = nil,
        isSecure: Bool = false,
        isHTTPOnly: Bool = false,
        isHostOnly: Bool = true,
        sameSite: SameSite? = nil
    ) {
        self.name = name
        self.value = value
        let lowered = domain.lowercased()
        self.domain = lowered.hasPrefix(".") ? String(lowered.dropFirst()) : lowered
        self.path = path
        self.expiry = expiry
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.isHostOnly = isHostOnly
        self.sameSite = sameSite
    }

    /// Whether the cookie lives only as long as its store (it has no expiry date).
    public var isSessionCookie: Bool { expiry == nil }

    /// Whether `other` is the same cookie for a store: the same name, domain and path, so that
    /// storing one replaces the other (RFC 6265 §5.3, step 11).
    ///
    /// ```swift
    /// let renewed = Cookie(name: "session", value: "new", domain: "example.com")
    /// renewed.hasSameIdentity(as: Cookie(name: "session", value: "old", domain: "example.com"))  // true
    /// ```
    public func hasSameIdentity(as other: Cookie) -> Bool {
        name == other.name && domain == other.domain && path == other.path
    }
}
