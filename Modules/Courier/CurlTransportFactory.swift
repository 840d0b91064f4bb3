internal import CourierCurl
internal import CourierSecurity
internal import CourierSecurityOpenSSL

extension CourierClient {
    /// The default transport: libcurl with `settings`, and `policy`, when there is one, evaluated in
    /// OpenSSL's verify callback so that a rejected server never sees a request byte.
    static func curlTransport(_ settings: CurlTransport.Configuration, policy: SecurityPolicy?) -> CurlTransport {
        var settings = settings
        if let policy {
            settings.trustInstaller = OpenSSLTrustHook(evaluator: policy)
        }
        return CurlTransport(configuration: settings)
    }
}
