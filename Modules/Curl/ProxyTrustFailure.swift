internal import CCourierCurl
internal import CCourierCurlShim

extension CurlTransferState {
    /// `message` for a `CURLE_PEER_FAILED_VERIFICATION`, saying so when it was the proxy's
    /// certificate that failed: libcurl reports an untrusted proxy with the same code and text as an
    /// untrusted server, and only `CURLINFO_PROXY_SSL_VERIFYRESULT` tells them apart.
    func describingProxyTrustFailure(_ message: String) -> String {
        guard loop.configuration.proxyTLS.verifiesPeer else { return message }
        var result = 0
        guard courier_curl_easy_getinfo_long(easy, CURLINFO_PROXY_SSL_VERIFYRESULT, &result) == CURLE_OK,
            result != 0
        else { return message }
        return "the HTTPS proxy's certificate did not verify (X.509 error \(result)): \(message)"
    }
}
