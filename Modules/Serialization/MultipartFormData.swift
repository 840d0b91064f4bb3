public import CourierHTTP
public import FoundationEssentials

/// A multipart/form-data body (RFC 7578) built part by part and streamed when it is sent.
///
/// The builder mirrors AFNetworking's `AFMultipartFormData` appenders and its exact byte layout:
/// the first part starts with `--boundary` CRLF, every later part with CRLF `--boundary` CRLF, each
/// part's headers are `Name: Value` CRLF followed by a blank line, and the body ends with CRLF
/// `--boundary--` CRLF. ``contentLength`` is exact and computed without reading any file.
///
/// Appending a file records only its path and size; the bytes are read while the body is sent, so a
/// file of any size costs one buffer. `makeBody()` returns a replayable `HTTPBody`.
///
/// Making the body is synchronous unless the form holds a one-shot async stream: such a stream is
/// copied to a temporary file first (so that the body stays replayable), which means awaiting it, so
/// only the `async` overloads of `makeBody()`, `makeBodySource()` and `apply(to:)` accept it.
/// Inside an async function Swift picks those overloads by itself (`try await form.makeBody()`).
///
/// Two deliberate departures from AFNetworking:
/// - Names and file names are escaped as the WHATWG HTML standard's multipart/form-data encoding
///   does: `"` becomes `%22`, CR `%0D` and LF `%0A`. AFNetworking writes them verbatim, so a quote in
///   a file name cut the parameter short and a line break could inject headers. Servers that follow
///   the HTML standard decode `%22` back to a quote and keep `%0D` and `%0A` as text (werkzeug, and so
///   Flask, do exactly that). A backslash is sent as it is, as browsers send it; parsers that apply
///   quoted-string escapes (werkzeug among them) read `\"` as an escaped quote, so a name that ends
///   in a backslash is misread there.
/// - Every length is verified while reading: a file that changed size after it was appended, or a
///   stream that ends early or runs long, makes the body's reader throw instead of sending a body
///   that disagrees with its `Content-Length`.
///
/// ```swift
/// var form = MultipartFormData()
/// try form.appendParts(from: ["user": ["name": "Ada"]])
/// try form.append(Data("hello".utf8), name: "greeting")
/// try form.appendFile(atPath: "/srv/photos/cat.jpg", name: "photo")
///
/// var request = HTTPRequest(method: .post, url: uploadURL)
/// try form.apply(to: &request)
/// // Content-Type: multipart/form-data; boundary=Boundary+0123ABCD4567EF89
/// // Content-Length: the exact total
/// ```
public struct MultipartFormData: Sendable {
    /// The default ``memoryThreshold``: 10 MiB.
    public static let defaultMemoryThreshold: Int64 = 10 * 1024 * 1024

    /// The boundary that separates parts.
    public let boundary: String

    /// The most bytes of in-memory part bodies a body keeps in memory.
    ///
    /// When the in-memory parts add up to more, `makeBody()` copies them to a temporary file so
    /// that the body does not pin them; the file is deleted with the last copy of the body.
    public var memoryThreshold: Int64 = MultipartFormData.defaultMemoryThreshold

    /// The table that file parts appended without a MIME type take it from.
    public var mimeTypes: MIMETypes = .system

    /// The pacing applied to the body's readers, if any; see ``throttle(packetSize:delay:)``.
    public var throttle: MultipartThrottle?

    var parts: [MultipartPart] = []
    private var bodyLength: Int64 = 0

    /// Creates an empty form with a fresh random boundary in AFNetworking's format.
    ///
    /// The boundary is `Boundary+` and two random 32-bit numbers as 8 uppercase hex digits each.
    ///
    /// ```swift
    /// let form = MultipartFormData()
    /// form.boundary  // "Boundary+5A1F00C2E0B7D913"
    /// ```
    public init() {
        boundary = MultipartBoundary.random()
    }

    /// Creates an empty form with the caller's boundary.
    ///
    /// ```swift
    /// let form = try MultipartFormData(boundary: "----CourierFormBoundary7MA4YWxk")
    /// ```
    /// - Parameter boundary: 1 to 70 characters from RFC 2046's set (letters, digits,
    ///   `'()+_,-./:=?` and space), not ending with a space. The caller must make sure it never
    ///   occurs inside a part.
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when the
    ///   boundary breaks RFC 2046 §5.1.1.
    public init(boundary: String) throws(SerializationError) {
        try MultipartBoundary.validate(boundary)
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=<boundary>`, with the boundary unquoted as AFNetworking writes
    /// it (a caller's boundary that holds RFC 2045 `tspecials` such as space or `:` is quoted).
    public var contentType: String {
        "multipart/form-data; boundary=" + MultipartBoundary.parameterValue(boundary)
    }

    /// Whether the form has no parts.
    ///
    /// An empty form has no valid multipart encoding (RFC 2046 requires a body part), so, as in
    /// AFNetworking, `apply(to:)` leaves the request unchanged and `makeBody()` returns an empty
    /// body.
    public var isEmpty: Bool { parts.isEmpty }

    /// The number of parts.
    public var count: Int { parts.count }

    /// The exact length of the encoded body in bytes, 0 for an empty form; no file is read.
    public var contentLength: Int64 {
        guard !parts.isEmpty else { return 0 }
        return bodyLength + Self.closingLength(boundary)
    }

    /// Whether a part is a one-shot async stream, so that the body must be made with the async
    /// `makeBody()`.
    public var hasOneShotStreams: Bool {
        parts.contains { part in
            if case .oneShot = part.body { return true }
            return false
        }
    }

    /// Caps every read of the body at `packetSize` bytes and pauses `delay` after each one.
    ///
    /// AFNetworking's `throttleBandwidthWithPacketSize:delay:`; the reader answers
    /// `HTTPBodyReadResult.paused(until:)` rather than sleeping.
    ///
    /// ```swift
    /// try form.throttle(packetSize: MultipartThrottle.suggested3GPacketSize, delay: MultipartThrottle.suggested3GDelay)
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` for a
    ///   packet size below 1 or a negative delay.
    public mutating func throttle(packetSize: Int, delay: Duration) throws(SerializationError) {
        throttle = try MultipartThrottle(packetSize: packetSize, delay: delay)
    }

    // MARK: Appending parts

    /// Appends a form field: `Content-Disposition: form-data; name="<name>"` and the bytes.
    ///
    /// ```swift
    /// try form.append(Data("Ada".utf8), name: "user[name]")
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when the
    ///   name holds a NUL byte, which no header can carry.
    public mutating func append(_ data: Data, name: String) throws(SerializationError) {
        let headers = try MultipartPart.headers(name: name, fileName: nil, mimeType: nil)
        try add(MultipartPart(headers: headers, body: .data(data)))
    }

    /// Appends file contents held in memory, with a file name and a `Content-Type`.
    ///
    /// ```swift
    /// try form.append(pngData, name: "avatar", fileName: "me.png", mimeType: "image/png")
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when a
    ///   value cannot go into a header (a NUL byte, or CR or LF in the MIME type).
    public mutating func append(
        _ data: Data,
        name: String,
        fileName: String,
        mimeType: String
    ) throws(SerializationError) {
        let headers = try MultipartPart.headers(name: name, fileName: fileName, mimeType: mimeType)
        try add(MultipartPart(headers: headers, body: .data(data)))
    }

    /// Appends a file by URL; the file name is the URL's last path component and the MIME type comes
    /// from its extension (``mimeTypes``, `application/octet-stream` when unknown).
    ///
    /// ```swift
    /// try form.appendFile(at: URL(filePath: "/srv/certs/root.cer"), name: "certificate")
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/notAFileURL`` for a
    ///   non-file URL or ``SerializationError/Code/fileNotReachable`` for a missing or unreadable
    ///   file (AFNetworking's -1000 errors).
    public mutating func appendFile(at url: URL, name: String) throws(SerializationError) {
        guard url.isFileURL else { throw MultipartErrors.notAFileURL(url) }
        try appendFile(atPath: url.path(percentEncoded: false), name: name)
    }

    /// Appends a file by URL with an explicit file name and MIME type.
    ///
    /// ```swift
    /// try form.appendFile(at: videoURL, name: "video", fileName: "clip.mp4", mimeType: "video/mp4")
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/notAFileURL`` for a
    ///   non-file URL (failure reason `Expected URL to be a file URL`),
    ///   ``SerializationError/Code/fileNotReachable`` for a missing or unreadable file (`File URL not
    ///   reachable.`), or ``SerializationError/Code/invalidRequest`` for a value no header can carry.
    public mutating func appendFile(
        at url: URL,
        name: String,
        fileName: String,
        mimeType: String
    ) throws(SerializationError) {
        guard url.isFileURL else { throw MultipartErrors.notAFileURL(url) }
        try appendFile(atPath: url.path(percentEncoded: false), name: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends a file by path; the file name is the path's last component and the MIME type comes
    /// from its extension.
    ///
    /// ```swift
    /// try form.appendFile(atPath: "/srv/photos/cat.jpg", name: "photo")  // image/jpeg
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/fileNotReachable`` for a
    ///   missing or unreadable file.
    public mutating func appendFile(atPath path: String, name: String) throws(SerializationError) {
        let fileName = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        try appendFile(atPath: path, name: name, fileName: fileName, mimeType: mimeTypes.mimeType(forPath: fileName))
    }

    /// Appends a file by path with an explicit file name and MIME type.
    ///
    /// Only the file's size is read now (so that ``contentLength`` is exact); the bytes are read
    /// while the body is sent, and a file whose size changed by then makes the read throw.
    ///
    /// ```swift
    /// try form.appendFile(atPath: "/var/tmp/dump.bin", name: "dump", fileName: "dump.bin", mimeType: "application/octet-stream")
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/fileNotReachable`` for a
    ///   missing, unreadable or non-regular file, or ``SerializationError/Code/invalidRequest`` for a
    ///   value no header can carry.
    public mutating func appendFile(
        atPath path: String,
        name: String,
        fileName: String,
        mimeType: String
    ) throws(SerializationError) {
        let length: Int64
        do {
            length = try HTTPBody(fileAt: path).length ?? 0
        } catch {
            throw MultipartErrors.fileNotReachable(path, underlying: error)
        }
        let headers = try MultipartPart.headers(name: name, fileName: fileName, mimeType: mimeType)
        try add(MultipartPart(headers: headers, body: .file(path: path, length: length)))
    }

    /// Appends an async sequence of chunks that can be read only once, with its exact length.
    ///
    /// AFNetworking trusts the declared length; Courier checks it. Because the sequence cannot be
    /// replayed, the async `makeBody()` copies it to a temporary file (verifying the length) so the
    /// body can still be sent again after a redirect; the synchronous `makeBody()` refuses such a form.
    /// A form (and its copies) can make one body from a given stream.
    ///
    /// ```swift
    /// try form.append(stream: chunks, length: 4096, name: "log", fileName: "log.txt", mimeType: "text/plain")
    /// let body = try await form.makeBody()
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` for a
    ///   negative length or a value no header can carry.
    public mutating func append(
        stream: some AsyncSequence<Data, any Error> & Sendable,
        length: Int64,
        name: String,
        fileName: String,
        mimeType: String
    ) throws(SerializationError) {
        guard length >= 0 else {
            throw MultipartErrors.invalidPart("a stream length may not be negative, not \(length)")
        }
        let headers = try MultipartPart.headers(name: name, fileName: fileName, mimeType: mimeType)
        try add(MultipartPart(headers: headers, body: .oneShot(MultipartOneShotStream(stream, length: length))))
    }

    /// Appends a replayable stream: every reader of `source` must produce exactly `source.length` bytes.
    ///
    /// ```swift
    /// try form.append(source: generatedReport, name: "report", fileName: "report.csv", mimeType: "text/csv")
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when the
    ///   source's length is unknown (a multipart body needs every length up front) or a value cannot
    ///   go into a header.
    public mutating func append(
        source: some HTTPBodySource,
        name: String,
        fileName: String,
        mimeType: String
    ) throws(SerializationError) {
        let headers = try MultipartPart.headers(name: name, fileName: fileName, mimeType: mimeType)
        try append(source: source, headers: headers)
    }

    /// Appends a part with the caller's headers and a replayable stream body.
    ///
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when the
    ///   source's length is unknown or negative.
    public mutating func append(source: some HTTPBodySource, headers: HTTPHeaders) throws(SerializationError) {
        guard let length = source.length, length >= 0 else {
            throw MultipartErrors.invalidPart("a stream source part needs a known length")
        }
        try add(MultipartPart(headers: headers, body: .source(source, length: length)))
    }

    /// Appends a part with the caller's headers and body (AFNetworking's `appendPartWithHeaders:body:`).
    ///
    /// The headers were checked when `HTTPHeaders` was built. They are written with
    /// `Content-Disposition` first, then `Content-Type`, then the rest in the order given.
    ///
    /// ```swift
    /// let headers = try HTTPHeaders([("Content-Disposition", "form-data; name=\"meta\""), ("Content-Type", "application/json")])
    /// try form.append(headers: headers, body: Data(#"{"v":1}"#.utf8))
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when the
    ///   form would exceed the largest representable length.
    public mutating func append(headers: HTTPHeaders, body: Data) throws(SerializationError) {
        try add(MultipartPart(headers: headers, body: .data(body)))
    }

    /// Appends one form field per flattened parameter, as AFNetworking does before running the
    /// construction block.
    ///
    /// Parameters are flattened like a query string (sorted keys, `a[b]`, `a[]`, sets repeated); each
    /// part's name is the unescaped field. Its bytes are the raw bytes of a ``ParameterValue/data(_:)``
    /// value, nothing for ``ParameterValue/null``, and the UTF-8 ``ParameterValue/textValue`` otherwise.
    ///
    /// ```swift
    /// try form.appendParts(from: ["user": ["name": "Ada", "tags": ["a", "b"]]])
    /// // parts: user[name]=Ada, user[tags][]=a, user[tags][]=b
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/invalidRequest`` when a
    ///   field name holds a NUL byte.
    public mutating func appendParts(from parameters: Parameters) throws(SerializationError) {
        for parameter in ParameterValue.flatten(parameters) {
            let bytes: Data
            switch parameter.value {
            case .data(let data): bytes = data
            case .null: bytes = Data()
            default: bytes = Data(parameter.value.textValue.utf8)
            }
            try append(bytes, name: parameter.field)
        }
    }

    private mutating func add(_ part: MultipartPart) throws(SerializationError) {
        let prefix = Int64(boundary.utf8.count) + (parts.isEmpty ? 4 : 6)
        let (partLength, partOverflow) = part.body.length.addingReportingOverflow(
            prefix + Int64(part.headerBlock.count)
        )
        let (total, overflow) = bodyLength.addingReportingOverflow(partLength)
        guard !partOverflow, !overflow, total <= Int64.max - Self.closingLength(boundary) else {
            throw MultipartErrors.invalidPart("the form would be longer than \(Int64.max) bytes")
        }
        bodyLength = total
        parts.append(part)
    }

    /// CRLF `--boundary--` CRLF.
    static func closingLength(_ boundary: String) -> Int64 {
        Int64(boundary.utf8.count) + 8
    }
}
