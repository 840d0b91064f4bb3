internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// The sidecar file `courier download` keeps next to a partial download, so `--resume` can ask for
/// the rest of the same version of the file.
///
/// It lives at `<FILE>.courier-resume` and holds `key=value` lines:
///
/// ```
/// # courier download resume record: delete this file to start over
/// url=http://127.0.0.1:8080/big-1g
/// etag="6745f2a1-40000000"
/// last-modified=Sun, 29 Nov 2026 16:00:00 GMT
/// length=1073741824
/// ```
///
/// It is written when a 200 or 206 response arrives and removed once the download completes, so its
/// presence means "the file is partial". The bytes already on disk are the file's own size (the
/// transport writes sequentially and never past what it received). Resuming sends `Range` with
/// `If-Range` (RFC 9110 §13.1.5): the strong ETag, else `Last-Modified`; a server whose file changed
/// answers 200 and the download restarts cleanly. A record for another URL, or one without any
/// validator, is not used: the download starts over.
struct ResumeRecord: Equatable {
    var url: String
    var entityTag: String?
    var lastModified: String?
    var length: Int64?

    static func path(for file: String) -> String { file + ".courier-resume" }

    /// The record of a response that started writing `file`.
    init(url: String, response: HTTPResponse) {
        self.url = url
        entityTag = response.headers["ETag"]
        lastModified = response.headers["Last-Modified"]
        if response.status.code == 206, let range = response.headers["Content-Range"],
            let slash = range.lastIndex(of: "/")
        {
            length = Int64(range[range.index(after: slash)...])
        } else {
            length = response.expectedContentLength
        }
    }

    private init(url: String) {
        self.url = url
    }

    /// Reads the record beside `file`; `nil` when there is none or it is not one of ours.
    static func load(for file: String) -> ResumeRecord? {
        guard let text = try? String(contentsOfFile: path(for: file), encoding: .utf8) else { return nil }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let url = fields["url"] else { return nil }
        var record = ResumeRecord(url: url)
        record.entityTag = fields["etag"]
        record.lastModified = fields["last-modified"]
        record.length = fields["length"].flatMap { Int64($0) }
        return record
    }

    /// Writes the record atomically, so a crash never leaves half a record.
    func save(for file: String) throws(CommandFailure) {
        var text = "# courier download resume record: delete this file to start over\nurl=\(url)\n"
        if let entityTag { text += "etag=\(entityTag)\n" }
        if let lastModified { text += "last-modified=\(lastModified)\n" }
        if let length { text += "length=\(length)\n" }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: Self.path(for: file)), options: .atomic)
        } catch {
            throw CommandFailure("cannot write the resume record \(Self.path(for: file)): \(error)")
        }
    }

    static func remove(for file: String) {
        try? FileManager.default.removeItem(atPath: path(for: file))
    }

    /// The validator for resuming after `offset` bytes, or `nil` when resuming would be unsafe.
    func validator(offset: Int64) -> ResumeValidator? {
        let validator = ResumeValidator(offset: offset, entityTag: entityTag, lastModified: lastModified)
        return validator.ifRangeValue == nil ? nil : validator
    }
}
