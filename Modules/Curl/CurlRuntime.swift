internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierTransport

/// The process-wide libcurl initialisation and the capability check every transport relies on.
///
/// `curl_global_init` is not thread-safe on every build, so it runs exactly once, through a lazily
/// initialised global (Swift runs those under `swift_once`), before any loop thread exists. OpenSSL
/// is initialised first without its `atexit` cleanup, which could otherwise pull the library out
/// from under a loop thread at process exit.
enum CurlRuntime {
    /// The outcome of initialising libcurl and checking what it was built with; `nil` when usable.
    static let startupError: TransportError? = initialise()

    /// The libcurl version string, e.g. `7.88.1`, for diagnostics.
    static var versionDescription: String {
        guard let info = courier_curl_version_info(), let version = info.pointee.version else { return "unknown" }
        return String(cString: version)
    }

    /// libcurl's `version_num` (`0xXXYYZZ`), or 0 when it reports no version information.
    static var versionNumber: Int {
        guard let info = courier_curl_version_info() else { return 0 }
        return Int(info.pointee.version_num)
    }

    private static func initialise() -> TransportError? {
        let code = courier_curl_global_init()
        guard code == CURLE_OK else {
            return TransportError(
                category: .configuration,
                code: Int(code.rawValue),
                message: "curl_global_init failed: \(String(cString: curl_easy_strerror(code)))"
            )
        }
        guard let info = courier_curl_version_info() else {
            return TransportError(category: .configuration, message: "libcurl reports no version information")
        }
        let ssl = info.pointee.ssl_version.map { String(cString: $0) } ?? ""
        return checkCapabilities(sslVersion: ssl, hasHTTP2: courier_curl_version_has_http2(info) != 0)
    }

    /// Checks that libcurl was built against OpenSSL (the TLS seam installs an OpenSSL verify
    /// callback, which only the `libcurl4-openssl` flavour supports) and with HTTP/2.
    static func checkCapabilities(sslVersion: String, hasHTTP2: Bool) -> TransportError? {
        guard sslVersion.hasPrefix("OpenSSL") else {
            return TransportError(
                category: .configuration,
                message: "libcurl uses \(sslVersion.isEmpty ? "no TLS library" : sslVersion), not OpenSSL; "
                    + "install the libcurl4-openssl flavour"
            )
        }
        guard hasHTTP2 else {
            return TransportError(category: .configuration, message: "libcurl was built without HTTP/2 support")
        }
        return nil
    }
}
