public import FoundationEssentials

/// Names and dates read from a certificate, for messages such as "certificate for other.test
/// (valid until 2125-01-01) does not match api.test".
///
/// ```swift
/// let info = try verifier.info(of: trust.leaf ?? certificate)
/// if info.notAfter < Date() { print("expired \(info.notAfter)") }
/// ```
public struct CertificateInfo: Hashable, Sendable {
    /// The subject's common name (CN), if it has one.
    public var subjectCommonName: String?
    /// The issuer's common name (CN), if it has one.
    public var issuerCommonName: String?
    /// The start of the validity period.
    public var notBefore: Date
    /// The end of the validity period.
    public var notAfter: Date
    /// The DNS names among the subject alternative names, in certificate order.
    public var dnsNames: [String]
    /// The IP addresses among the subject alternative names, in text form (`127.0.0.1`, `::1`).
    public var ipAddresses: [String]

    /// Creates certificate information; verifiers do this.
    ///
    /// ```swift
    /// let info = CertificateInfo(notBefore: start, notAfter: end, dnsNames: ["api.test"])
    /// ```
    ///
    /// - Parameters:
    ///   - subjectCommonName: The subject's common name.
    ///   - issuerCommonName: The issuer's common name.
    ///   - notBefore: The start of the validity period.
    ///   - notAfter: The end of the validity period.
    ///   - dnsNames: The DNS subject alternative names.
    ///   - ipAddresses: The IP address subject alternative names, as text.
    public init(
        subjectCommonName: String? = nil,
        issuerCommonName: String? = nil,
        notBefore: Date,
        notAfter: Date,
        dnsNames: [String] = [],
        ipAddresses: [String] = []
    ) {
        self.subjectCommonName = subjectCommonName
        self.issuerCommonName = issuerCommonName
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
    }
}
