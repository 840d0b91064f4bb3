internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

extension CurlTransferState {
    /// The request a raw connection's handle is configured with: `request`'s URL and timeouts, and
    /// nothing that would only matter to a request libcurl sends (no request is sent).
    static func rawConnectionRequest(_ request: HTTPRequest) -> HTTPRequest {
        var configured = HTTPRequest(method: .get, url: request.url)
        configured.timeout = request.timeout
        configured.connectTimeout = request.connectTimeout
        configured.handlesCookies = false
        return configured
    }

    /// Turns a transfer's configured handle into one that only connects (`CURLOPT_CONNECT_ONLY`):
    /// the proxy tunnel, TLS handshake and trust decision happen, then libcurl hands the connection
    /// over to `curl_easy_send` and `curl_easy_recv`.
    func configureForRawConnection() throws(TransportError) {
        let options = EasyOptions(easy: easy, url: request.url)
        optionTrail.requireReset()
        try options.set(CURLOPT_CONNECT_ONLY, 1)
        // HTTP/1.1 only, so ALPN offers `http/1.1` alone: libcurl 7.88 crashes in `curl_easy_send`
        // on a connection that negotiated h2, and the caller speaks HTTP/1.1 over it anyway.
        try options.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        // A connection of its own: never one of the transfers' pooled connections.
        try options.set(CURLOPT_FRESH_CONNECT, 1)
        // Through an HTTP proxy, `CONNECT` to the origin even for `http`: the stream is the
        // origin's, not the proxy's.
        try options.set(CURLOPT_HTTPPROXYTUNNEL, 1)
        // The early-GOAWAY watch is for requests libcurl sends; there is none here.
        watchesForEarlyGoaway = false
        try options.set(CURLOPT_NOPROGRESS, 1)
    }

    /// The error for a raw connection libcurl failed to open, mapped as a transfer's failure is
    /// (trust, revocation, proxy trust), with a refused `CONNECT` reported as the proxy's.
    func rawConnectionFailure(code: CURLcode) -> TransportError {
        var completion = TransferCompletion(code: Int(code.rawValue), url: request.url, metrics: collectMetrics())
        completion.pendingFailure = pendingFailure
        completion.errorText = String(cString: errorBuffer)
        completion.revocationFailure = trustEvaluation?.revocationFailure
        completion.describingProxyTrustFailure = { [self] in describingProxyTrustFailure($0) }
        let failure: TransportError =
            switch completion.outcome(finishingBody: { nil }) {
            case .failed(let failure): failure
            case .completed:
                TransportError(
                    category: .other,
                    message: "libcurl ended the connect without a connection",
                    url: request.url
                )
            }
        var connectCode = 0
        if failure.category == .connectionLost,
            courier_curl_easy_getinfo_long(easy, CURLINFO_HTTP_CONNECTCODE, &connectCode) == CURLE_OK,
            connectCode >= 300
        {
            // libcurl 7.88 reports a refused tunnel as a receive error (56, "CONNECT tunnel failed").
            return TransportError(
                category: .proxyFailed,
                code: failure.code,
                message: "the proxy refused the tunnel with \(connectCode): \(failure.message)",
                url: request.url,
                metrics: failure.metrics
            )
        }
        return failure
    }
}
