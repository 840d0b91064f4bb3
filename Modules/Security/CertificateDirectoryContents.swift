/// The certificates read from a directory, and the files that were skipped.
///
/// ```swift
/// let contents = try PinnedCertificateLoader.certificates(inDirectory: "/etc/myapp/pins", using: verifier)
/// let policy = SecurityPolicy(pinningMode: .certificate, pinnedCertificates: contents.certificates, verifier: verifier)
/// ```
public struct CertificateDirectoryContents: Hashable, Sendable {
    /// The certificates, in file-name order, a PEM file's in their order within the file.
    public let certificates: [Certificate]
    /// The certificate files that could not be read or decoded, in file-name order.
    public let skipped: [SkippedCertificateFile]

    /// Creates the contents; the loader does this.
    ///
    /// ```swift
    /// let contents = CertificateDirectoryContents(certificates: [leaf], skipped: [])
    /// ```
    ///
    /// - Parameters:
    ///   - certificates: The certificates read.
    ///   - skipped: The files skipped.
    public init(certificates: [Certificate], skipped: [SkippedCertificateFile]) {
        self.certificates = certificates
        self.skipped = skipped
    }
}
