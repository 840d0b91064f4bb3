public import CourierTransport

/// The cookie jar of one ``CurlTransport``: libcurl's cookie engine, shared by its transfers.
///
/// Every operation runs on the transport's loop thread (the jar lives in a libcurl share handle that
/// only that thread touches) and is awaited here, so no thread ever blocks on it. Cookies are listed
/// and set as Netscape cookie-file lines (`domain  flag  path  secure  expiry  name  value`, tab
/// separated; `#HttpOnly_` prefixes HTTP-only cookies) or as `Set-Cookie:` header lines; as a
/// `CookieStore` (the transport's `cookieStore`) it reads and writes `Cookie` values.
///
/// ```swift
/// try await transport.cookies.set("Set-Cookie: session=abc; Domain=127.0.0.1; Path=/")
/// let lines = try await transport.cookies.all()
/// try await transport.cookies.save(to: "/var/tmp/cookies.txt")
/// try await transport.cookies.removeAll()
/// ```
public struct CurlCookieJar: Sendable {
    private let loop: CurlLoop?
    private let startupError: TransportError?

    init(loop: CurlLoop?, startupError: TransportError?) {
        self.loop = loop
        self.startupError = startupError
    }

    /// Every cookie in the jar, one Netscape cookie-file line each.
    public func all() async throws(TransportError) -> [String] {
        try await run(.list)
    }

    /// Adds or replaces a cookie given as a `Set-Cookie:` header line or a Netscape cookie-file line.
    ///
    /// A `Set-Cookie:` line without a `Domain` attribute is stored without a domain, and so is sent
    /// nowhere; give the domain.
    public func set(_ line: String) async throws(TransportError) {
        guard !line.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 }) else {
            throw TransportError(category: .invalidRequest, message: "a cookie line may not contain NUL, CR or LF")
        }
        _ = try await run(.set(line))
    }

    /// Removes every cookie.
    public func removeAll() async throws(TransportError) {
        _ = try await run(.removeAll)
    }

    /// Removes the cookies without an expiry date (session cookies).
    public func removeSessionCookies() async throws(TransportError) {
        _ = try await run(.removeSessionCookies)
    }

    /// Adds the cookies of a Netscape cookie file (or a file of `Set-Cookie:` lines).
    public func load(from path: String) async throws(TransportError) {
        _ = try await run(.load(path: path))
    }

    /// Writes every cookie to a Netscape cookie file, replacing it.
    public func save(to path: String) async throws(TransportError) {
        _ = try await run(.save(path: path))
    }

    func run(_ operation: CookieOperation) async throws(TransportError) -> [String] {
        guard let loop else {
            throw startupError ?? CurlLoop.shutDownError(nil)
        }
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<[String], TransportError>, Never>) in
            if !loop.post(.cookies(operation, continuation)) {
                continuation.resume(returning: .failure(CurlLoop.shutDownError(nil)))
            }
        }
        return try result.get()
    }
}
