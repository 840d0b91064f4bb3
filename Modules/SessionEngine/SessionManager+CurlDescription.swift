public import CourierHTTP
public import CourierSessionCore
internal import CourierTransport

extension SessionManager {
    /// A `curl` command line that sends `request` as this session would send it now: with the
    /// cookies its transport's store holds for the URL and the transport's compression
    /// (Alamofire's `Request.cURLDescription()`).
    ///
    /// The cookies come from the transport's `cookieStore` when the request handles cookies
    /// (its `handlesCookies`, or the transport's `requestDefaults`), and `--compressed` is added
    /// when the transport asks for compressed responses and the request sets no
    /// `Accept-Encoding`. The rest is `HTTPRequest`'s
    /// `curlDescription(style:additionalHeaders:cookies:decompressesResponse:revealingSecrets:)`
    /// (module `CourierSessionCore`).
    ///
    /// The request is described as given. Headers a request serializer adds (`User-Agent`,
    /// `Accept-Language`) are in a request built by the session's calls (`request(_:_:parameters:headers:)`);
    /// what the interceptor's adapters add is not, as they run when each attempt is sent. To see
    /// what an attempt sent, describe the response's `request`, which is the adapted one.
    ///
    /// When the cookie store cannot be read (the transport was shut down), the command goes
    /// without cookies and a shell comment line before it says why.
    ///
    /// ```swift
    /// let request = try session.request(.post, "https://api.example.com/items", parameters: ["name": "Ada"])
    /// print(await session.curlDescription(for: request, style: .multiLine))
    /// // curl \
    /// //   -X 'POST' \
    /// //   -b 'session=***' \
    /// //   -H 'Accept-Language: en;q=1' \
    /// //   -H 'User-Agent: app/1.0 (Linux 6.1.0)' \
    /// //   -H 'Content-Type: application/x-www-form-urlencoded' \
    /// //   --compressed \
    /// //   --data-raw 'name=Ada' \
    /// //   'https://api.example.com/items'
    ///
    /// let response = await session.response(for: request, serializer: DataResponseSerializer(), options: RequestOptions())
    /// if let sent = response.request { print(await session.curlDescription(for: sent)) }
    /// ```
    /// - Parameters:
    ///   - request: The request.
    ///   - style: One line (the default), or one option a line.
    ///   - revealingSecrets: Whether to write secrets (credentials, cookie values) as they are.
    /// - Returns: The command, each argument quoted for a POSIX shell.
    public func curlDescription(
        for request: HTTPRequest,
        style: CurlDescriptionStyle = .singleLine,
        revealingSecrets: Bool = false
    ) async -> String {
        let transport = self.transport
        let defaults = transport.requestDefaults
        var cookies: [Cookie] = []
        var note: String?
        if request.handlesCookies ?? defaults.handlesCookies, let store = transport.cookieStore {
            do {
                cookies = try await store.cookies(for: request.url)
            } catch {
                let reason = "\(error)".map { $0.isNewline ? " " : $0 }
                note = "# cookies left out: the cookie store failed: " + String(reason)
            }
        }
        let command = request.curlDescription(
            style: style,
            cookies: cookies,
            decompressesResponse: defaults.decompressesResponses,
            revealingSecrets: revealingSecrets
        )
        return note.map { $0 + "\n" + command } ?? command
    }
}
