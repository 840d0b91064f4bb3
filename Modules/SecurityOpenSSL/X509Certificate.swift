internal import CCourierOpenSSL
internal import CCourierOpenSSLShim
internal import CourierSecurity
internal import FoundationEssentials

/// An owned OpenSSL `X509 *` parsed from a `Certificate`.
///
/// Not Sendable: it wraps a C pointer and lives only inside one verifier call, on one thread; it is
/// freed when the last reference goes.
final class X509Certificate {
    let pointer: OpaquePointer

    /// Parses strict DER: trailing bytes after the certificate are an error, not ignored.
    init(_ certificate: Certificate, position: Int? = nil) throws(SecurityError) {
        let der = certificate.derBytes
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count > 0 else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let x509 = d2i_X509(nil, &cursor, raw.count) else { return nil }
            guard cursor == base + raw.count else {
                X509_free(x509)
                return nil
            }
            return x509
        }
        guard let parsed else {
            let which = position.map { "certificate \($0)" } ?? "certificate"
            throw SecurityError(.invalidCertificate, reason: "\(which) is not DER X.509 (\(der.count) bytes)")
        }
        self.pointer = parsed
    }

    deinit {
        X509_free(pointer)
    }
}
