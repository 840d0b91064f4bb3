public import FoundationEssentials

/// An X.509 certificate as its DER bytes.
///
/// Courier keeps certificates as bytes so that this module needs no crypto library: parsing,
/// verification and key extraction go through a ``CertificateVerifying`` (OpenSSL in
/// `CourierSecurityOpenSSL`). Two certificates are equal when their DER bytes are identical, which is
/// the comparison AFNetworking's certificate pinning uses.
///
/// ```swift
/// let pinned = Certificate(derBytes: try Data(contentsOf: URL(filePath: "api.cer")))
/// let matches = trust.certificates.contains(pinned)
/// ```
public struct Certificate: Hashable, Sendable, CustomStringConvertible {
    /// The DER encoding of the certificate.
    public let derBytes: Data

    /// Wraps DER bytes without parsing them; a verifier reports malformed bytes when it uses them.
    ///
    /// ```swift
    /// let certificate = Certificate(derBytes: der)
    /// ```
    ///
    /// - Parameter derBytes: The DER encoding of an X.509 certificate.
    public init(derBytes: Data) {
        self.derBytes = derBytes
    }

    /// `"Certificate(412 bytes)"`; use ``CertificateVerifying/info(of:)`` for names and dates.
    public var description: String { "Certificate(\(derBytes.count) bytes)" }
}
