public import FoundationEssentials

/// Reads certificates to pin from DER or PEM data, from a file, or from every certificate file in a
/// directory: the Linux analogue of AFNetworking's `+[AFSecurityPolicy certificatesInBundle:]`.
///
/// PEM is recognised by its `-----BEGIN` line and decoded by the verifier; anything else is taken as
/// DER bytes without parsing, as AFNetworking takes a `.cer` file's data. A DER file that is not a
/// certificate is therefore still pinned as bytes: it can never match, and ``SecurityPolicy`` derives
/// no key from it, which is AFNetworking's silent skip.
///
/// The loader is pure Swift and decodes PEM through `CertificateVerifying`, so this module needs no
/// crypto library and tests can use a double; pass `OpenSSLCertificateVerifier()` in an app.
///
/// ```swift
/// let verifier = OpenSSLCertificateVerifier()
/// let fromFile = try PinnedCertificateLoader.certificates(contentsOfFile: "api.crt", using: verifier)
/// let fromDirectory = try PinnedCertificateLoader.certificates(inDirectory: "/etc/myapp/pins", using: verifier)
/// ```
public enum PinnedCertificateLoader {
    /// The file name extensions read from a directory, compared without regard to case.
    public static let fileExtensions: Set<String> = ["cer", "crt", "pem", "der"]

    /// The certificates in DER or PEM data.
    ///
    /// ```swift
    /// let pinned = try PinnedCertificateLoader.certificates(from: Data(pemText.utf8), using: verifier)
    /// ```
    ///
    /// - Parameters:
    ///   - data: One DER certificate, or PEM text with one or more `CERTIFICATE` blocks.
    ///   - verifier: Decodes PEM.
    /// - Returns: The certificates, at least one.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/invalidPEM`` for PEM without a
    ///   certificate, or ``SecurityError/Code/invalidCertificate`` for empty data.
    public static func certificates(
        from data: Data,
        using verifier: any CertificateVerifying
    ) throws(SecurityError) -> [Certificate] {
        if data.isEmpty {
            throw SecurityError(.invalidCertificate, reason: "no certificate bytes")
        }
        if isPEM(data) {
            return try verifier.certificates(fromPEM: data)
        }
        return [Certificate(derBytes: data)]
    }

    /// The certificates in a DER or PEM file.
    ///
    /// ```swift
    /// let pinned = try PinnedCertificateLoader.certificates(contentsOfFile: "/etc/myapp/api.pem", using: verifier)
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - verifier: Decodes PEM.
    /// - Returns: The certificates, at least one.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/unreadableFile`` when the file cannot
    ///   be read, otherwise as ``certificates(from:using:)``.
    public static func certificates(
        contentsOfFile path: String,
        using verifier: any CertificateVerifying
    ) throws(SecurityError) -> [Certificate] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: path))
        } catch {
            throw SecurityError(.unreadableFile, reason: "cannot read \(path): \(error)")
        }
        return try certificates(from: data, using: verifier)
    }

    /// The certificates of every `.cer`, `.crt`, `.pem` and `.der` file at the top level of a
    /// directory, in file-name order; files that cannot be read or decoded are listed as skipped.
    ///
    /// ```swift
    /// let contents = try PinnedCertificateLoader.certificates(inDirectory: "/etc/myapp/pins", using: verifier)
    /// for file in contents.skipped { log("not pinned: \(file)") }
    /// ```
    ///
    /// - Parameters:
    ///   - directory: The directory; subdirectories are not entered, as a bundle's top level only is.
    ///   - verifier: Decodes PEM.
    /// - Returns: The certificates and the skipped files.
    /// - Throws: ``SecurityError`` with code ``SecurityError/Code/unreadableFile`` when the directory
    ///   cannot be listed.
    public static func certificates(
        inDirectory directory: String,
        using verifier: any CertificateVerifying
    ) throws(SecurityError) -> CertificateDirectoryContents {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw SecurityError(.unreadableFile, reason: "cannot list \(directory): \(error)")
        }
        var certificates: [Certificate] = []
        var skipped: [SkippedCertificateFile] = []
        for name in names.sorted() where hasCertificateExtension(name) {
            let path = URL(filePath: directory).appending(path: name).path
            do {
                certificates += try self.certificates(contentsOfFile: path, using: verifier)
            } catch {
                skipped.append(SkippedCertificateFile(path: path, reason: error.description))
            }
        }
        return CertificateDirectoryContents(certificates: certificates, skipped: skipped)
    }

    private static func hasCertificateExtension(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return fileExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    private static func isPEM(_ data: Data) -> Bool {
        // PEM files may start with explanatory text (RFC 7468, section 5.2), so look for the line anywhere.
        data.firstRange(of: Data("-----BEGIN ".utf8)) != nil
    }
}
