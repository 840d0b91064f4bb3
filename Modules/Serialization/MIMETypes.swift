internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// A table from file-name extensions to MIME types, for multipart file parts appended without one.
///
/// AFNetworking asks the platform's type database. On Linux that database is `/etc/mime.types`
/// (Debian's `media-types` package, and most other distributions), one type per line followed by its
/// extensions, `#` starting a comment. ``system`` reads it once, on first use, over a built-in table
/// of common types that also serves when the file is absent. Lookups ignore case; an unknown
/// extension gives `application/octet-stream`, AFNetworking's fallback.
///
/// The system table can disagree with Apple's database: Debian maps `.cer` to
/// `application/pkix-cert` (RFC 2585) where Apple, and AFNetworking's test, give
/// `application/x-x509-ca-cert`. The built-in table follows Apple for such entries; inject a table
/// to pin a mapping.
///
/// ```swift
/// MIMETypes.system.mimeType(forPath: "photo.JPG")        // "image/jpeg"
/// let custom = MIMETypes(parsing: "application/x-courier  cour\n")
/// custom.mimeType(forExtension: "cour")                 // "application/x-courier"
/// custom.mimeType(forPath: "data.unknown")               // "application/octet-stream"
/// ```
public struct MIMETypes: Sendable, Hashable {
    /// The type given when no table knows an extension.
    public static let defaultMIMEType = "application/octet-stream"

    /// The path of the system table.
    public static let systemTablePath = "/etc/mime.types"

    private let types: [String: String]

    /// A table parsed from text in the `mime.types` format, optionally over a fallback table.
    ///
    /// ```swift
    /// let table = MIMETypes(parsing: "# comment\ntext/x-notes  notes nts\n")
    /// ```
    /// - Parameters:
    ///   - contents: Lines of `type ext1 ext2 …`; `#` starts a comment; an extension's first line wins.
    ///   - fallback: A table consulted for extensions `contents` does not list.
    public init(parsing contents: String, fallback: MIMETypes? = nil) {
        var types: [String: String] = [:]
        for line in contents.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let text = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let type = words.first, type.contains("/") else { continue }
            for word in words.dropFirst() {
                let key = Self.normalise(String(word))
                if types[key] == nil { types[key] = String(type) }
            }
        }
        if let fallback {
            types.merge(fallback.types) { own, _ in own }
        }
        self.types = types
    }

    /// A table read from a file in the `mime.types` format.
    ///
    /// ```swift
    /// let table = try MIMETypes(contentsOfFile: "/etc/mime.types", fallback: .builtIn)
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/fileNotReachable`` when
    ///   the file cannot be read.
    public init(contentsOfFile path: String, fallback: MIMETypes? = nil) throws(SerializationError) {
        self.init(parsing: try Self.readText(path), fallback: fallback)
    }

    /// The built-in table of common types, used when the system table is absent.
    public static let builtIn = MIMETypes(parsing: MIMETypes.builtInTable)

    /// The system table over the built-in one, read once on first use; the built-in table alone when
    /// `/etc/mime.types` cannot be read.
    public static let system: MIMETypes =
        (try? MIMETypes(contentsOfFile: systemTablePath, fallback: .builtIn)) ?? .builtIn

    /// The MIME type for an extension (without its dot, any case), or `nil` when the table has none.
    ///
    /// ```swift
    /// MIMETypes.builtIn.mimeType(forExtension: "PNG")  // "image/png"
    /// ```
    public func mimeType(forExtension pathExtension: String) -> String? {
        types[Self.normalise(pathExtension)]
    }

    /// The MIME type for a file's path or name, from its last extension; `application/octet-stream`
    /// when it has none or the table does not know it.
    ///
    /// ```swift
    /// MIMETypes.system.mimeType(forPath: "/srv/archive.tar.gz")  // "application/gzip"
    /// ```
    public func mimeType(forPath path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex else {
            return Self.defaultMIMEType
        }
        return mimeType(forExtension: String(name[name.index(after: dot)...])) ?? Self.defaultMIMEType
    }

    /// ASCII lower case, so that `JPG` and `jpg` match without locale rules.
    private static func normalise(_ pathExtension: String) -> String {
        String(
            decoding: pathExtension.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 },
            as: UTF8.self
        )
    }

    /// Reads a text file of at most 16 MiB with POSIX calls (FoundationEssentials has no file handle).
    private static func readText(_ path: String) throws(SerializationError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw MultipartErrors.fileNotReachable(path) }
        defer { close(descriptor) }
        let limit = 16 << 20
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in
                raw.baseAddress.map { read(descriptor, $0, raw.count) } ?? -1
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw MultipartErrors.fileNotReachable(path) }
            guard count > 0 else { break }
            bytes += buffer[..<count]
            guard bytes.count <= limit else {
                throw MultipartErrors.fileNotReachable(
                    path,
                    underlying: MultipartFailure("a MIME table larger than \(limit) bytes is not read")
                )
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
