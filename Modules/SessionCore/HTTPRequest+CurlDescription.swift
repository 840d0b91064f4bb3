public import CourierHTTP
public import CourierTransport

extension HTTPRequest {
    /// A `curl` command line that sends this request, for logs and bug reports (Alamofire's
    /// `cURLDescription`), on one line.
    ///
    /// The same as ``curlDescription(style:additionalHeaders:cookies:decompressesResponse:revealingSecrets:)``
    /// in ``CurlDescriptionStyle/singleLine`` with nothing added: the request alone, without the
    /// cookies and compression its session's transport would add (`SessionManager`'s
    /// `curlDescription(for:style:revealingSecrets:)` adds them).
    ///
    /// ```swift
    /// print(request.curlDescription())
    /// // curl -X 'POST' -H 'Authorization: ***' -H 'Content-Type: application/json' -H 'User-Agent:' --data-raw '{"name":"Ada"}' 'https://api.example.com/items'
    /// ```
    /// - Parameter revealingSecrets: Whether to write secrets as they are.
    /// - Returns: The command, each argument quoted for a POSIX shell.
    public func curlDescription(revealingSecrets: Bool = false) -> String {
        curlDescription(style: .singleLine, revealingSecrets: revealingSecrets)
    }

    /// A `curl` command line that makes the `curl` tool send this request as Courier's libcurl
    /// transport would, with the fields, cookies and compression added on the way.
    ///
    /// The command has the method (`--head` for `HEAD`), the credential (`-u`, with `--digest`, or
    /// `--anyauth` for Basic and Digest together), `cookies` (`-b`, or, when the request has a
    /// `Cookie` field of its own, a `Cookie` field before it, as libcurl sends them), the fields
    /// (the request's, then those of `additionalHeaders` it lacks), `--compressed` when asked for and the request sets no `Accept-Encoding`,
    /// `--path-as-is` when the request keeps its dot segments, the body and the URL. Where the `curl` tool would add a field the transport does not send, the
    /// command removes it: `User-Agent` when the request has none, `Content-Type` on a body without
    /// one, and `Expect` on a body over 1024 bytes or of unknown length. A field with an empty value
    /// is written `-H 'Name;'`, the tool's spelling of it.
    ///
    /// A body held in memory is written out with `--data-raw` (which, unlike `-d`, never reads a
    /// file); bytes that are not UTF-8 text, and file, stream and producer bodies, are named, not
    /// read (`--data-binary '<file body, 5 bytes>'`), so that command sends a placeholder. An empty
    /// `POST`, `PUT` or `PATCH` gets `--data-raw ''`, as the transport sends `Content-Length: 0`.
    ///
    /// Secrets are redacted unless asked for: the values of `Authorization`, `Cookie`,
    /// `Proxy-Authorization` and `X-API-Key`, each cookie's value, and the credential's password.
    /// Every argument is single-quoted for a POSIX shell, with `'` written `'\''`.
    ///
    /// ```swift
    /// let session = Cookie(name: "session", value: "abc", domain: "api.example.com")
    /// print(request.curlDescription(style: .multiLine, cookies: [session], decompressesResponse: true))
    /// // curl \
    /// //   -X 'POST' \
    /// //   -b 'session=***' \
    /// //   -H 'Content-Type: application/json' \
    /// //   -H 'User-Agent: app/1.0 (Linux)' \
    /// //   --compressed \
    /// //   --data-raw '{"name":"Ada"}' \
    /// //   'https://api.example.com/items'
    /// ```
    /// - Parameters:
    ///   - style: One line, or one option a line.
    ///   - additionalHeaders: Fields added where the request lacks them (the request's win), such
    ///     as those an adapter adds when the request is sent.
    ///   - cookies: The cookies the transport's store would send with the request, in sending order
    ///     (`CookieStore.cookies(for:)`).
    ///   - decompressesResponse: Whether the transport asks for every coding it decodes
    ///     (`TransportRequestDefaults.decompressesResponses`), written as `--compressed`.
    ///   - revealingSecrets: Whether to write secrets as they are.
    /// - Returns: The command, each argument quoted for a POSIX shell.
    public func curlDescription(
        style: CurlDescriptionStyle,
        additionalHeaders: HTTPHeaders = HTTPHeaders(),
        cookies: [Cookie] = [],
        decompressesResponse: Bool = false,
        revealingSecrets: Bool = false
    ) -> String {
        CurlCommandLine(
            request: self,
            additionalHeaders: additionalHeaders,
            cookies: cookies,
            decompressesResponse: decompressesResponse,
            revealingSecrets: revealingSecrets
        ).rendered(style)
    }
}
