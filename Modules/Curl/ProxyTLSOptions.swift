internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierTransport

extension CurlTransferState {
    /// The TLS options of the connection to an `https://` proxy, which libcurl keeps apart from the
    /// server's (`CURLOPT_PROXY_CAINFO`, `CURLOPT_PROXY_SSLCERT` and the rest; see curl's
    /// `CURLOPT_PROXY_*` documentation). libcurl ignores them for `http://` and SOCKS proxies.
    static func configureProxyTLS(
        _ options: EasyOptions,
        _ configuration: CurlTransport.Configuration
    ) throws(TransportError) {
        let tls = configuration.proxyTLS
        try options.setMaterial(of: tls, .proxy)
        try options.set(CURLOPT_PROXY_SSL_VERIFYPEER, tls.verifiesPeer ? 1 : 0)
        try options.set(CURLOPT_PROXY_SSL_VERIFYHOST, tls.verifiesHost ? 2 : 0)
    }
}
