/// A file that ``PinnedCertificateLoader/certificates(inDirectory:using:)`` did not pin, and why.
///
/// ```swift
/// for file in contents.skipped { print("not pinned: \(file.path): \(file.reason)") }
/// ```
public struct SkippedCertificateFile: Hashable, Sendable, CustomStringConvertible {
    /// The file's path: the directory joined with the file name.
    public let path: String
    /// Why the file was skipped, such as the verifier's PEM error.
    public let reason: String

    /// Creates a record of a skipped file; the loader does this.
    ///
    /// ```swift
    /// let skipped = SkippedCertificateFile(path: "pins/bad.pem", reason: "no certificate")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - reason: Why it was skipped.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `"pins/bad.pem: no certificate"`.
    public var description: String { "\(path): \(reason)" }
}
