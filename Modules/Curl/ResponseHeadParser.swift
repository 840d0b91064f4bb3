internal import CourierHTTP

/// Builds response heads from the lines libcurl hands to the header callback, one line per call.
///
/// libcurl delivers every head it reads: interim `1xx` heads (`100 Continue`, `103 Early Hints`,
/// the `101` of an h2c upgrade), then the final head, then (for chunked bodies) trailer lines. HTTP/2
/// heads arrive as an `HTTP/2 200` status line plus ordinary header lines. The parser reports each
/// completed head; the transport keeps only the first non-`1xx` one and ignores trailers.
struct ResponseHeadParser {
    /// What one line completed.
    enum Outcome: Equatable {
        /// The line was part of a head still being read.
        case pending
        /// An interim (`1xx`) head ended.
        case interim(status: Int)
        /// A final head ended.
        case final(status: Int, version: HTTPResponse.Version, headers: HTTPHeaders)
        /// The server sent something that is not HTTP.
        case malformed(String)
    }

    /// Where field Strings come from: a transport's recent ones, or `nil` to make each anew.
    private let strings: HeaderStringCache?
    private var status: Int?
    private var version: HTTPResponse.Version = .http1_1
    private var headers = HTTPHeaders()
    private var pendingName: String?
    private var pendingValue = ""
    /// Whether the pending field's name is a token and its value free of CR, LF and NUL, as seen on
    /// the bytes; when not, `HTTPHeaders` checks it again and reports what is wrong.
    private var pendingIsChecked = false
    /// What the pending field says about the body's framing, known from its name and value bytes.
    private var pendingFraming = ResponseFraming.FieldRole.other
    /// The framing facts of the head being read.
    private var framing = ResponseFraming.Facts()
    /// The framing facts of the last head that ended (see ``ResponseFraming/Facts``).
    private(set) var finishedFraming = ResponseFraming.Facts()
    /// Header bytes seen so far, every head included.
    private(set) var byteCount = 0
    /// Field lines of the head being read (a folded continuation is not one); back to 0 at its end.
    private(set) var fieldCount = 0

    /// A parser whose field names and values come from `strings` when given (see ``HeaderStringCache``).
    init(strings: HeaderStringCache? = nil) {
        self.strings = strings
    }

    /// Consumes one line, CRLF included, as libcurl delivered it.
    ///
    /// Works on the raw bytes (this runs for every header line of every response): the colon and the
    /// optional whitespace around the value (RFC 9110 §5.5) are found byte-wise, and only the name and
    /// the trimmed value become Strings. `:`, space and tab are ASCII, so they never occur inside a
    /// multi-byte UTF-8 sequence and splitting there keeps every sequence whole.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        byteCount += bytes.count
        var end = bytes.count
        if end > 0 && bytes[end - 1] == 0x0A { end -= 1 }
        if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        guard let status else {
            if line.isEmpty { return .pending }
            guard let parsed = Self.parseStatusLine(line) else {
                let text = String(decoding: line, as: UTF8.self)
                return .malformed("malformed status line \(text.prefix(80).debugDescription)")
            }
            self.status = parsed.status
            version = parsed.version
            return .pending
        }
        if line.isEmpty {
            if let failure = flushPendingField() { return failure }
            let finished = (status, version, headers)
            self.status = nil
            headers = HTTPHeaders()
            fieldCount = 0
            finishedFraming = framing
            framing = ResponseFraming.Facts()
            if (100...199).contains(finished.0) { return .interim(status: finished.0) }
            return .final(status: finished.0, version: finished.1, headers: finished.2)
        }
        if Self.isSpace(line[0]) {
            // An obsolete folded continuation (RFC 9112 §5.2): joined to the previous value by a space.
            guard pendingName != nil else { return .malformed("a folded header line without a header") }
            let value = Self.scanValue(line, from: 0)
            pendingValue += " " + text(UnsafeRawBufferPointer(rebasing: line[value.start..<value.end]))
            if pendingIsChecked { pendingIsChecked = value.isClean }
            // The facts were taken from the first line alone: the headers decide instead.
            framing.isExact = false
            return .pending
        }
        if let failure = flushPendingField() { return failure }
        // One pass over the name: where the colon is, and whether every byte before it is a token's.
        var colon = 0
        var nameIsToken = true
        while colon < line.count && line[colon] != 0x3A {
            nameIsToken = nameIsToken && Self.isTokenByte(line[colon])
            colon += 1
        }
        guard colon < line.count else {
            let text = String(decoding: line, as: UTF8.self)
            return .malformed("header line without a colon \(text.prefix(80).debugDescription)")
        }
        let name = UnsafeRawBufferPointer(rebasing: line[0..<colon])
        let value = Self.scanValue(line, from: colon + 1)
        let valueBytes = UnsafeRawBufferPointer(rebasing: line[value.start..<value.end])
        fieldCount += 1
        pendingName = text(name)
        pendingValue = text(valueBytes)
        pendingIsChecked = colon > 0 && nameIsToken && value.isClean
        pendingFraming = ResponseFraming.FieldRole(name: name, value: valueBytes)
        return .pending
    }

    /// RFC 9110 §5.6.2 `tchar`, as two 64-bit masks over the ASCII bytes: a test per name byte
    /// without a call (`HTTPToken.isTokenByte` is not inlined across the module boundary, and a call
    /// per byte showed in the per-request profile). `ResponseHeadParserTests` checks that the two agree.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        return byte < 64 ? (low >> byte) & 1 == 1 : byte < 128 && (high >> (byte - 64)) & 1 == 1
    }

    /// The value of a field line after `start`: its bounds without leading and trailing spaces and
    /// tabs (RFC 9110 §5.5's OWS), and whether it is free of CR, LF and NUL (the trimmed-off bytes
    /// are spaces and tabs, so this is the whole rest of the line's answer too).
    private static func scanValue(
        _ line: UnsafeRawBufferPointer,
        from start: Int
    ) -> (start: Int, end: Int, isClean: Bool) {
        var first = start
        while first < line.count && isSpace(line[first]) { first += 1 }
        var end = line.count
        while end > first && isSpace(line[end - 1]) { end -= 1 }
        return (first, end, !hasLineBreakOrNUL(line, from: first, to: end))
    }

    /// Whether `line[start..<end]` holds a CR, LF or NUL, tested eight bytes at a time: a value is
    /// read for every field of every response, and a test per byte cost about as much as making
    /// its String.
    private static func hasLineBreakOrNUL(_ line: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // Whether any byte of `word` is zero (exact: a borrow only ever follows a zero byte).
        func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & (ones &* 0x80) != 0 }
        var index = start
        while index + 8 <= end {
            let word = line.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if hasZeroByte(word) || hasZeroByte(word ^ (ones &* 0x0A)) || hasZeroByte(word ^ (ones &* 0x0D)) {
                return true
            }
            index += 8
        }
        while index < end {
            let byte = line[index]
            if byte == 0x0D || byte == 0x0A || byte == 0x00 { return true }
            index += 1
        }
        return false
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    private func text(_ bytes: UnsafeRawBufferPointer) -> String {
        strings?.string(bytes) ?? String(decoding: bytes, as: UTF8.self)
    }

    private mutating func flushPendingField() -> Outcome? {
        guard let name = pendingName else { return nil }
        pendingName = nil
        framing.note(pendingFraming)
        // A typical response head has a handful to a dozen fields.
        if headers.isEmpty { headers.reserveCapacity(12) }
        if pendingIsChecked {
            headers.add(HTTPHeaders.Field(checkedName: name, value: pendingValue))
            return nil
        }
        do {
            try headers.add(name: name, value: pendingValue)
        } catch {
            return .malformed("invalid header field: \(error)")
        }
        return nil
    }

    /// Parses `HTTP/1.1 200 OK`, `HTTP/2 204` or `HTTP/1.0 404` into version and status code.
    ///
    /// The reason phrase is ignored (RFC 9112 §4: clients should ignore it); the code must be
    /// exactly three digits.
    static func parseStatusLine(_ line: String) -> (version: HTTPResponse.Version, status: Int)? {
        var line = line
        return line.withUTF8 { parseStatusLine(UnsafeRawBufferPointer($0)) }
    }

    /// ``parseStatusLine(_:)`` on the line's bytes, as libcurl hands them over: no String is made.
    static func parseStatusLine(_ line: UnsafeRawBufferPointer) -> (version: HTTPResponse.Version, status: Int)? {
        guard let space = line.firstIndex(of: 0x20) else { return nil }
        let token = line[0..<space]
        let version: HTTPResponse.Version
        if token.elementsEqual("HTTP/1.1".utf8) {
            version = .http1_1
        } else if token.elementsEqual("HTTP/2".utf8) || token.elementsEqual("HTTP/2.0".utf8) {
            version = .http2
        } else if token.elementsEqual("HTTP/1.0".utf8) {
            version = .http1_0
        } else if token.elementsEqual("HTTP/3".utf8) || token.elementsEqual("HTTP/3.0".utf8) {
            version = .http3
        } else {
            return nil
        }
        // Exactly three digits, then the end of the line or the space before the reason phrase.
        let codeStart = space + 1
        guard line.count >= codeStart + 3, line.count == codeStart + 3 || line[codeStart + 3] == 0x20 else {
            return nil
        }
        var status = 0
        for index in codeStart..<codeStart + 3 {
            let byte = line[index]
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            status = status * 10 + Int(byte - 0x30)
        }
        guard status >= 100 else { return nil }
        return (version, status)
    }
}
