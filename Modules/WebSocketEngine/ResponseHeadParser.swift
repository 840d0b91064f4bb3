internal import CourierHTTP
internal import CourierTransport
internal import CourierWebSocket
internal import FoundationEssentials

/// Reads the server's answer to the opening handshake: an HTTP/1.1 status line and header fields
/// (RFC 9112 §4 and §5), up to the empty line. What follows the head already belongs to the
/// WebSocket (the server may send its first frames right behind the 101), so it is kept.
struct ResponseHeadParser {
    /// The most bytes a response head may take before the handshake fails: far more than a real
    /// upgrade answer, small enough that a server sending garbage cannot fill memory.
    static let defaultMaximumHeadSize = 64 << 10

    let maximumHeadSize: Int
    let url: URL
    private var buffer: [UInt8] = []
    /// Where the search for the blank line resumes, so a head read in many pieces is scanned once.
    private var scanned = 0

    init(url: URL, maximumHeadSize: Int = defaultMaximumHeadSize) {
        self.url = url
        self.maximumHeadSize = maximumHeadSize
    }

    /// A parsed head and the bytes that came after it.
    struct Head {
        var response: HTTPResponse
        var remainder: [UInt8]
    }

    /// Adds received bytes; returns the head once its blank line has arrived.
    /// - Throws: `WebSocketError.transport` of category `protocolViolation` for a head that is not
    ///   HTTP/1.1, or that grows past the limit.
    mutating func append(_ bytes: [UInt8]) throws(WebSocketError) -> Head? {
        buffer.append(contentsOf: bytes)
        let terminator: [UInt8] = [13, 10, 13, 10]
        var index = max(0, scanned - 3)
        while index + 4 <= buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                let response = try parse(buffer[..<index])
                return Head(response: response, remainder: Array(buffer[(index + terminator.count)...]))
            }
            index += 1
        }
        scanned = buffer.count
        if buffer.count > maximumHeadSize {
            throw failure("the response head is larger than \(maximumHeadSize) bytes")
        }
        return nil
    }

    private func parse(_ head: ArraySlice<UInt8>) throws(WebSocketError) -> HTTPResponse {
        guard head.count <= maximumHeadSize else {
            throw failure("the response head is larger than \(maximumHeadSize) bytes")
        }
        let lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        guard let statusLine = lines.first, let text = String(validating: statusLine, as: UTF8.self) else {
            throw failure("the status line is not text")
        }
        // RFC 9112 §4: HTTP-version SP 3DIGIT SP [reason-phrase].
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0" else {
            throw failure("the status line \"\(text.prefix(80))\" is not HTTP/1.1")
        }
        guard parts[1].count == 3, parts[1].allSatisfy(\.isASCIIDigit), let code = Int(parts[1]) else {
            throw failure("the status line \"\(text.prefix(80))\" has no three-digit status")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            // RFC 9112 §5.2: obsolete line folding; a client may reject it, and an upgrade has no use for it.
            guard let first = line.first, first != 32, first != 9 else {
                throw failure("a header line is folded or empty")
            }
            guard let colon = line.firstIndex(of: 58), colon > line.startIndex,
                let name = String(validating: line[..<colon], as: UTF8.self),
                !name.contains(where: { $0 == " " || $0 == "\t" })
            else {
                throw failure("a header line has no field name")
            }
            // RFC 9112 §5.1: optional whitespace around the value is not part of it.
            var valueBytes = line[(colon + 1)...]
            while let byte = valueBytes.first, byte == 32 || byte == 9 { valueBytes.removeFirst() }
            while let byte = valueBytes.last, byte == 32 || byte == 9 { valueBytes.removeLast() }
            let value = String(decoding: valueBytes, as: UTF8.self)
            do {
                try headers.add(name: name, value: value)
            } catch {
                throw failure("header \(name.prefix(40)): \(error)")
            }
        }
        return HTTPResponse(
            status: HTTPStatus(code: code),
            headers: headers,
            url: url,
            version: parts[0] == "HTTP/1.0" ? .http1_0 : .http1_1
        )
    }

    private func failure(_ message: String) -> WebSocketError {
        .transport(
            TransportError(category: .protocolViolation, message: "WebSocket handshake: \(message)", url: url)
        )
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
