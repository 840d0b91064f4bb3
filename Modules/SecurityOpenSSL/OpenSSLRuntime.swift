internal import CCourierOpenSSLShim

/// Process-wide OpenSSL set-up shared by the verifier, the trust hook and the libcurl transport.
///
/// ```swift
/// OpenSSLRuntime.initialize()  // before curl_global_init
/// ```
public enum OpenSSLRuntime {
    /// Initialises libcrypto and libssl without OpenSSL's exit-time cleanup.
    ///
    /// OpenSSL registers an `atexit` handler that frees its global state; a transport's loop thread
    /// still inside a handshake at process exit would then use freed memory. Only the first
    /// initialisation in a process decides, so the transport calls this before `curl_global_init`
    /// (which initialises OpenSSL with the handler). Repeated calls are cheap.
    ///
    /// ```swift
    /// guard OpenSSLRuntime.initialize() else { fatalError("OpenSSL unusable") }
    /// ```
    ///
    /// - Returns: Whether OpenSSL is initialised.
    @discardableResult
    public static func initialize() -> Bool {
        courier_openssl_init() == 1
    }
}
