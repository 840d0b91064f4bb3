public import FoundationEssentials

/// A client certificate and its private key, loaded and checked before any connection: the chain
/// parsed, the key decrypted, the key matched against the certificate and the certificate within
/// its validity period. A transport presents it when a server asks for a client certificate.
///
/// The checking backend makes it (`ClientIdentity.load(…)` in `CourierSecurityOpenSSL`) and
/// re-encodes it as PEM in memory, the key unencrypted: a transport then hands both to its TLS
/// library as in-memory blobs, so no decrypted key is ever written to disk, and a wrong passphrase
/// or a mismatched key is a typed error at configuration time rather than a handshake failure.
///
/// ```swift
/// let identity = try ClientIdentity.load(pkcs12At: "/etc/app/client.p12", passphrase: secret)
/// configuration.tls.clientIdentity = identity
/// ```
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The certificate chain as PEM, the leaf first.
    public let certificateChainPEM: Data
    /// The private key as unencrypted PKCS#8 PEM. Keep it in memory only.
    public let privateKeyPEM: Data
    /// The leaf's subject, in OpenSSL's one-line form (`/CN=client.example`).
    public let subject: String
    /// The start of the leaf's validity period.
    public let notBefore: Date
    /// The end of the leaf's validity period.
    public let notAfter: Date

    /// Creates an identity from material a backend has already checked.
    ///
    /// ```swift
    /// let identity = ClientIdentity(
    ///     certificateChainPEM: chain, privateKeyPEM: key, subject: "/CN=app", notBefore: start, notAfter: end
    /// )
    /// ```
    /// - Parameters:
    ///   - certificateChainPEM: The chain as PEM, leaf first.
    ///   - privateKeyPEM: The unencrypted key as PEM.
    ///   - subject: The leaf's subject.
    ///   - notBefore: The start of the leaf's validity.
    ///   - notAfter: The end of the leaf's validity.
    public init(
        certificateChainPEM: Data,
        privateKeyPEM: Data,
        subject: String,
        notBefore: Date,
        notAfter: Date
    ) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// The subject and validity; never the key.
    public var description: String {
        "ClientIdentity(\(subject), valid \(notBefore) to \(notAfter), key redacted)"
    }
}
