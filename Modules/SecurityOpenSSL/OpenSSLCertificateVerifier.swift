internal import CCourierOpenSSL
internal import CCourierOpenSSLShim
public import CourierSecurity
public import FoundationEssentials
internal import Glibc

/// Certificate verification, key extraction and PEM parsing on OpenSSL 3, the library libcurl uses.
///
/// It holds no state and no C handle: every call parses what it needs and frees it before
/// returning, so it is safe from any thread, inside a TLS handshake or outside one. Errors OpenSSL
/// queues on the calling thread during a call are dropped when it returns, so that a handshake in
/// progress on that thread reports only its own.
///
/// ```swift
/// let verifier = OpenSSLCertificateVerifier()
/// let anchors = try verifier.certificates(fromPEM: rootPEM)
/// try verifier.verify([leaf, intermediate], anchors: anchors, host: "api.test")
/// print(try verifier.publicKeyPin(of: leaf))  // sha256//...
/// ```
public struct OpenSSLCertificateVerifier: CertificateVerifying {
    /// Creates a verifier, initialising OpenSSL if nothing has yet.
    ///
    /// ```swift
    /// let verifier = OpenSSLCertificateVerifier()
    /// ```
    public init() {
        OpenSSLRuntime.initialize()
    }

    /// Verifies `chain` with only `anchors` trusted, partial chains allowed, for TLS server use.
    ///
    /// Builds an `X509_STORE` holding only the anchors, sets `X509_V_FLAG_PARTIAL_CHAIN` (any anchor
    /// may end the chain, as with `SecTrustSetAnchorCertificates`), the TLS-server purpose, the time,
    /// and the host (`X509_VERIFY_PARAM_set1_ip_asc` for IP literals, otherwise
    /// `X509_VERIFY_PARAM_set1_host` with RFC 6125 wildcards), then runs `X509_verify_cert`.
    ///
    /// ```swift
    /// try verifier.verify([leaf, intermediate], anchors: [intermediate], host: "127.0.0.1", at: nil)
    /// ```
    ///
    /// - Parameters:
    ///   - chain: The certificates, leaf first.
    ///   - anchors: The only trusted certificates.
    ///   - host: A DNS name or IP literal (brackets allowed), or nil.
    ///   - time: When dates are checked; nil means now.
    /// - Throws: `SecurityError` with `SecurityError.Code.verificationFailed` and OpenSSL's reason
    ///   and `X509_V_ERR_*` code, or `SecurityError.Code.invalidCertificate`.
    public func verify(
        _ chain: [Certificate],
        anchors: [Certificate],
        host: String?,
        at time: Date?
    ) throws(SecurityError) {
        guard !chain.isEmpty else {
            throw SecurityError(.invalidCertificate, reason: "the chain to verify is empty")
        }
        ERR_set_mark()
        defer { ERR_pop_to_mark() }

        var parsedChain: [X509Certificate] = []
        for (position, certificate) in chain.enumerated() {
            parsedChain.append(try X509Certificate(certificate, position: position))
        }
        // X509_STORE_CTX_init borrows the leaf without a reference: keep every parsed certificate
        // alive until OpenSSL is done (Swift may otherwise free it after its last use here).
        defer { withExtendedLifetime(parsedChain) {} }
        var parsedAnchors: [X509Certificate] = []
        for (position, certificate) in anchors.enumerated() {
            parsedAnchors.append(try X509Certificate(certificate, position: position))
        }

        guard let store = X509_STORE_new() else { throw Self.outOfMemory }
        defer { X509_STORE_free(store) }
        for anchor in parsedAnchors where X509_STORE_add_cert(store, anchor.pointer) != 1 {
            throw SecurityError(.verificationFailed, reason: "an anchor could not be added to the store")
        }
        guard let untrusted = courier_sk_X509_new_null() else { throw Self.outOfMemory }
        defer { courier_sk_X509_pop_free(untrusted) }
        for certificate in parsedChain.dropFirst() {
            // The stack frees what it holds; it holds its own reference.
            X509_up_ref(certificate.pointer)
            if courier_sk_X509_push(untrusted, certificate.pointer) == 0 {
                X509_free(certificate.pointer)
                throw Self.outOfMemory
            }
        }
        guard let context = X509_STORE_CTX_new() else { throw Self.outOfMemory }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, parsedChain[0].pointer, untrusted) == 1,
            X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER) == 1,
            let parameters = X509_STORE_CTX_get0_param(context)
        else { throw Self.outOfMemory }
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        if let time {
            X509_VERIFY_PARAM_set_time(parameters, time_t(time.timeIntervalSince1970.rounded(.down)))
        }
        if let host = HostName.normalized(host) {
            let accepted: Int32
            if courier_host_is_ip_literal(host) == 1 {
                accepted = X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
            } else {
                accepted = X509_VERIFY_PARAM_set1_host(parameters, host, host.utf8.count)
                X509_VERIFY_PARAM_set_hostflags(parameters, courier_host_check_flags())
            }
            guard accepted == 1 else {
                throw SecurityError(.verificationFailed, reason: "the host \"\(host)\" cannot be checked")
            }
        }

        if X509_verify_cert(context) == 1 { return }
        var code = X509_STORE_CTX_get_error(context)
        if code == X509_V_OK { code = X509_V_ERR_UNSPECIFIED }
        throw SecurityError(.verificationFailed, reason: Self.verifyErrorText(code), libraryCode: Int(code))
    }

    /// The SubjectPublicKeyInfo DER (`i2d_X509_PUBKEY`), as
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der` prints it.
    ///
    /// ```swift
    /// let spki = try verifier.subjectPublicKeyInfo(of: leaf)
    /// ```
    ///
    /// - Parameter certificate: The certificate.
    /// - Returns: The DER bytes.
    /// - Throws: `SecurityError` with `SecurityError.Code.invalidCertificate`.
    public func subjectPublicKeyInfo(of certificate: Certificate) throws(SecurityError) -> Data {
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        let parsed = try X509Certificate(certificate)
        // The key is borrowed from the certificate: keep the certificate alive until it is encoded.
        defer { withExtendedLifetime(parsed) {} }
        guard let key = X509_get_X509_PUBKEY(parsed.pointer) else {
            throw SecurityError(.invalidCertificate, reason: "the certificate has no public key")
        }
        let length = i2d_X509_PUBKEY(key, nil)
        guard length > 0 else {
            throw SecurityError(.invalidCertificate, reason: "the certificate's public key cannot be encoded")
        }
        var der = Data(count: Int(length))
        let written = der.withUnsafeMutableBytes { raw -> Int32 in
            var cursor = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return i2d_X509_PUBKEY(key, &cursor)
        }
        guard written == length else {
            throw SecurityError(.invalidCertificate, reason: "the certificate's public key cannot be encoded")
        }
        return der
    }

    /// The SHA-256 digest (`EVP_Digest` with `EVP_sha256`).
    ///
    /// ```swift
    /// let digest = verifier.sha256(spki)
    /// ```
    ///
    /// - Parameter data: The bytes to digest.
    /// - Returns: The 32-byte digest; empty only if OpenSSL cannot allocate a digest context.
    public func sha256(_ data: Data) -> Data {
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { raw in
            // EVP_Digest accepts a null pointer for zero bytes only; give it a valid one always.
            withUnsafeBytes(of: UInt8(0)) { empty in
                EVP_Digest(raw.baseAddress ?? empty.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
            }
        }
        guard ok == 1 else { return Data() }
        return Data(digest.prefix(Int(length)))
    }

    /// The certificates of a PEM text (`PEM_read_bio_X509` until no block is left).
    ///
    /// ```swift
    /// let certificates = try verifier.certificates(fromPEM: Data(pemText.utf8))
    /// ```
    ///
    /// - Parameter pem: PEM text.
    /// - Returns: The certificates, at least one.
    /// - Throws: `SecurityError` with `SecurityError.Code.invalidPEM` and OpenSSL's reason when
    ///   there is no certificate or a block is truncated or corrupt.
    public func certificates(fromPEM pem: Data) throws(SecurityError) -> [Certificate] {
        guard !pem.isEmpty else { throw SecurityError(.invalidPEM, reason: "the PEM text is empty") }
        guard pem.count <= Int(Int32.max) else {
            throw SecurityError(.invalidPEM, reason: "the PEM text is too large (\(pem.count) bytes)")
        }
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        let outcome: Result<[Certificate], SecurityError> = pem.withUnsafeBytes { raw in
            // BIO_new_mem_buf reads the buffer in place: the BIO must not outlive this closure.
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                return .failure(SecurityError(.invalidPEM, reason: "out of memory"))
            }
            defer { BIO_free(bio) }
            var certificates: [Certificate] = []
            while let x509 = PEM_read_bio_X509(bio, nil, nil, nil) {
                let der = Self.encode(x509)
                X509_free(x509)
                guard let der else {
                    return .failure(
                        SecurityError(.invalidPEM, reason: "certificate \(certificates.count) cannot be encoded")
                    )
                }
                certificates.append(Certificate(derBytes: der))
            }
            let error = ERR_peek_last_error()
            let reachedEnd = ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE
            if !certificates.isEmpty, error == 0 || reachedEnd { return .success(certificates) }
            if certificates.isEmpty, error == 0 || reachedEnd {
                return .failure(SecurityError(.invalidPEM, reason: "no certificate in the PEM text"))
            }
            let text = ERR_reason_error_string(error).map { String(cString: $0) } ?? "unknown error"
            return .failure(
                SecurityError(
                    .invalidPEM,
                    reason: "certificate \(certificates.count) in the PEM text is invalid: \(text)",
                    libraryCode: Int(error)
                )
            )
        }
        return try outcome.get()
    }

    /// Subject and issuer common names, validity and subject alternative names.
    ///
    /// ```swift
    /// let info = try verifier.info(of: leaf)
    /// ```
    ///
    /// - Parameter certificate: The certificate.
    /// - Returns: What the certificate says about itself.
    /// - Throws: `SecurityError` with `SecurityError.Code.invalidCertificate`.
    public func info(of certificate: Certificate) throws(SecurityError) -> CertificateInfo {
        ERR_set_mark()
        defer { ERR_pop_to_mark() }
        let parsed = try X509Certificate(certificate)
        // Names and dates are borrowed from the certificate: keep it alive until they are copied.
        defer { withExtendedLifetime(parsed) {} }
        guard let notBefore = Self.date(X509_get0_notBefore(parsed.pointer)),
            let notAfter = Self.date(X509_get0_notAfter(parsed.pointer))
        else {
            throw SecurityError(.invalidCertificate, reason: "the certificate's validity dates cannot be read")
        }
        var info = CertificateInfo(
            subjectCommonName: Self.commonName(X509_get_subject_name(parsed.pointer)),
            issuerCommonName: Self.commonName(X509_get_issuer_name(parsed.pointer)),
            notBefore: notBefore,
            notAfter: notAfter
        )
        guard let names = courier_x509_subject_alt_names(parsed.pointer) else { return info }
        defer { courier_general_names_free(names) }
        for index in 0..<courier_general_names_count(names) {
            var bytes: UnsafePointer<UInt8>?
            var length: Int32 = 0
            let kind = courier_general_names_get(names, index, &bytes, &length)
            guard let bytes, length > 0 else { continue }
            let value = UnsafeBufferPointer(start: bytes, count: Int(length))
            switch Int(kind) {
            case COURIER_SAN_DNS: info.dnsNames.append(String(decoding: value, as: UTF8.self))
            case COURIER_SAN_IP: if let address = Self.addressText(value) { info.ipAddresses.append(address) }
            default: continue
            }
        }
        return info
    }

    // MARK: - Helpers

    private static let outOfMemory = SecurityError(.verificationFailed, reason: "OpenSSL is out of memory")

    static func verifyErrorText(_ code: Int32) -> String {
        X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
    }

    private static func encode(_ x509: OpaquePointer) -> Data? {
        let length = i2d_X509(x509, nil)
        guard length > 0 else { return nil }
        var der = Data(count: Int(length))
        let written = der.withUnsafeMutableBytes { raw -> Int32 in
            var cursor = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return i2d_X509(x509, &cursor)
        }
        return written == length ? der : nil
    }

    private static func commonName(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry)
        else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else { return nil }
        defer { courier_openssl_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private static func addressText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes.baseAddress, &text, socklen_t(text.count)) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
