internal import CCourierOpenSSLShim
public import CourierSecurity
public import FoundationEssentials

extension ClientIdentity {
    /// The encoding of a certificate or key file.
    public enum Encoding: Sendable, Hashable {
        /// Decide from the bytes: PEM text when it has a `-----BEGIN` line, DER otherwise.
        case automatic
    }

    /// Loads and checks a certificate (PEM chain or DER) and its private key (PEM or DER, PKCS#1,
    /// SEC 1 or PKCS#8, encrypted or not).
    ///
    /// ```swift
    /// let identity = try ClientIdentity.load(certificateAt: "client.pem", keyAt: "client.key", passphrase: "secret")
    /// ```
    /// - Parameters:
    ///   - certificatePath: The certificate file; a PEM file may hold the chain, and the key too.
    ///   - keyPath: The key file; `nil` when the PEM certificate file holds the key.
    ///   - passphrase: The key's passphrase, when it is encrypted.
    ///   - date: The instant the validity period is checked at; now by default.
    /// - Returns: The identity, re-encoded as PEM in memory.
    /// - Throws: `SecurityError` with code `unreadableFile`, `invalidCertificate`,
    ///   `invalidPrivateKey`, `wrongPassphrase`, `keyDoesNotMatchCertificate`, `certificateExpired`
    ///   or `certificateNotYetValid`.
    public static func load(
        certificateAt certificatePath: String,
        keyAt keyPath: String? = nil,
        passphrase: String? = nil,
        checkedAt date: Date = Date()
    ) throws(SecurityError) -> ClientIdentity {
        try load(
            certificate: try contents(of: certificatePath),
            key: try keyPath.map { path throws(SecurityError) in try contents(of: path) },
            passphrase: passphrase,
            checkedAt: date
        )
    }

    /// Loads and checks a certificate and key given as bytes (PEM or DER each).
    ///
    /// ```swift
    /// let identity = try ClientIdentity.load(certificate: pem, key: keyPEM)
    /// ```
    /// - Parameters:
    ///   - certificate: The certificate (a PEM chain, possibly with the key, or DER).
    ///   - key: The key; `nil` when the PEM certificate holds it.
    ///   - passphrase: The key's passphrase, when it is encrypted.
    ///   - date: The instant the validity period is checked at; now by default.
    /// - Returns: The identity.
    /// - Throws: `SecurityError`, as ``load(certificateAt:keyAt:passphrase:checkedAt:)``.
    public static func load(
        certificate: Data,
        key: Data?,
        passphrase: String? = nil,
        checkedAt date: Date = Date()
    ) throws(SecurityError) -> ClientIdentity {
        var loaded = courier_identity()
        let status = certificate.withUnsafeBytes { certificateBytes in
            withOptionalBytes(key) { keyBytes in
                withOptionalCString(passphrase) { passphrase in
                    courier_identity_load(
                        certificateBytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        certificateBytes.count,
                        keyBytes?.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        keyBytes?.count ?? 0,
                        passphrase,
                        &loaded
                    )
                }
            }
        }
        return try finish(status: status, loaded: &loaded, checkedAt: date)
    }

    /// Loads and checks a PKCS#12 bundle (`.p12`, `.pfx`) holding the certificate, its chain and
    /// the key.
    ///
    /// ```swift
    /// let identity = try ClientIdentity.load(pkcs12At: "client.p12", passphrase: "secret")
    /// ```
    /// - Parameters:
    ///   - path: The bundle.
    ///   - passphrase: The bundle's passphrase; `nil` or empty for none.
    ///   - date: The instant the validity period is checked at; now by default.
    /// - Returns: The identity.
    /// - Throws: `SecurityError` with code `unreadableFile`, `invalidPKCS12`, `wrongPassphrase`,
    ///   `keyDoesNotMatchCertificate`, `certificateExpired` or `certificateNotYetValid`.
    public static func load(
        pkcs12At path: String,
        passphrase: String?,
        checkedAt date: Date = Date()
    ) throws(SecurityError) -> ClientIdentity {
        let bundle = try contents(of: path)
        var loaded = courier_identity()
        let status = bundle.withUnsafeBytes { bytes in
            withOptionalCString(passphrase) { passphrase in
                courier_identity_load_pkcs12(
                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    bytes.count,
                    passphrase,
                    &loaded
                )
            }
        }
        return try finish(status: status, loaded: &loaded, checkedAt: date)
    }

    private static func finish(
        status: Int32,
        loaded: inout courier_identity,
        checkedAt date: Date
    ) throws(SecurityError) -> ClientIdentity {
        defer { courier_identity_free(&loaded) }
        let library = loaded.openssl_error == 0 ? nil : Int(loaded.openssl_error)
        switch Int(status) {
        case Int(COURIER_IDENTITY_OK): break
        case Int(COURIER_IDENTITY_BAD_CERTIFICATE):
            throw SecurityError(.invalidCertificate, reason: "no certificate could be read", libraryCode: library)
        case Int(COURIER_IDENTITY_BAD_KEY):
            throw SecurityError(.invalidPrivateKey, reason: "the private key could not be read", libraryCode: library)
        case Int(COURIER_IDENTITY_NO_KEY):
            throw SecurityError(.invalidPrivateKey, reason: "no private key was given", libraryCode: library)
        case Int(COURIER_IDENTITY_WRONG_PASSPHRASE):
            throw SecurityError(
                .wrongPassphrase,
                reason: "the key or bundle is encrypted and did not open with the passphrase given",
                libraryCode: library
            )
        case Int(COURIER_IDENTITY_KEY_MISMATCH):
            throw SecurityError(
                .keyDoesNotMatchCertificate,
                reason: "the private key does not belong to the certificate",
                libraryCode: library
            )
        case Int(COURIER_IDENTITY_BAD_PKCS12):
            throw SecurityError(.invalidPKCS12, reason: "the PKCS#12 bundle could not be read", libraryCode: library)
        default:
            throw SecurityError(.invalidCertificate, reason: "OpenSSL ran out of memory", libraryCode: library)
        }
        let subject = withUnsafeBytes(of: loaded.subject) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let notBefore = Date(timeIntervalSince1970: TimeInterval(loaded.not_before))
        let notAfter = Date(timeIntervalSince1970: TimeInterval(loaded.not_after))
        if date > notAfter {
            throw SecurityError(.certificateExpired, reason: "\(subject) expired on \(notAfter)")
        }
        if date < notBefore {
            throw SecurityError(.certificateNotYetValid, reason: "\(subject) is valid only from \(notBefore)")
        }
        return ClientIdentity(
            certificateChainPEM: Data(bytes: loaded.certificate_pem, count: loaded.certificate_pem_length),
            privateKeyPEM: Data(bytes: loaded.key_pem, count: loaded.key_pem_length),
            subject: subject,
            notBefore: notBefore,
            notAfter: notAfter
        )
    }

    private static func contents(of path: String) throws(SecurityError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SecurityError(.unreadableFile, reason: "\(path): \(error)")
        }
    }
}

private func withOptionalBytes<Result>(
    _ data: Data?,
    _ body: (UnsafeRawBufferPointer?) -> Result
) -> Result {
    guard let data else { return body(nil) }
    return data.withUnsafeBytes { body($0) }
}

private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
