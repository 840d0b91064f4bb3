/// A `multipart/form-data` parser written from RFC 7578 and RFC 2046 §5.1 for the round trips of
/// the multipart writer: an independent reading of what it writes.
///
/// Strict where the writer must be: the body starts with the first delimiter (no preamble is
/// written), every part has a `Content-Disposition: form-data` header with a quoted `name`, and the
/// close delimiter ends it. Names and filenames come back as they appear between the quotes: the
/// writer percent-encodes `"`, CR and LF there (RFC 7578 §4.2, the HTML standard's encoding), and
/// the parser leaves that to the caller, as RFC 7578 does.
public enum MultipartFormParser {
    /// One part as it was framed.
    public struct Part: Equatable, Sendable, CustomStringConvertible {
        public var name: String
        public var fileName: String?
        public var contentType: String?
        public var data: [UInt8]

        public init(name: String, fileName: String?, contentType: String?, data: [UInt8]) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.data = data
        }

        public var description: String {
            "name \(name.debugDescription) file \(String(describing: fileName)) type \(String(describing: contentType)) \(data.count) bytes"
        }
    }

    /// What is wrong with a body, at which byte.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public var offset: Int
        public var reason: String

        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// A name or filename as the writer must put it between quotes: `"`, CR and LF percent-encoded
    /// (the HTML standard's multipart/form-data encoding, RFC 7578 §4.2), written out independently
    /// of the module's version.
    public static func htmlEscaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The parts of `body`, framed by `boundary`.
    public static func parse(_ body: [UInt8], boundary: String) throws(Malformed) -> [Part] {
        let dashBoundary = Array("--\(boundary)".utf8)
        let delimiter = [13, 10] + dashBoundary
        guard body.starts(with: dashBoundary) else { throw Malformed(offset: 0, reason: "no opening delimiter") }
        var index = dashBoundary.count
        var parts: [Part] = []
        while true {
            if body[index...].starts(with: [45, 45]) {
                // The close delimiter; only a line break may follow (no epilogue is written).
                let rest = body[(index + 2)...]
                guard rest.isEmpty || Array(rest) == [13, 10] else {
                    throw Malformed(offset: index + 2, reason: "bytes after the close delimiter")
                }
                return parts
            }
            guard body[index...].starts(with: [13, 10]) else {
                throw Malformed(offset: index, reason: "no line break after a delimiter")
            }
            index += 2
            guard let headEnd = firstIndex(of: [13, 10, 13, 10], in: body, from: index) else {
                throw Malformed(offset: index, reason: "a part head without its blank line")
            }
            let head = String(decoding: body[index..<headEnd], as: UTF8.self)
            index = headEnd + 4
            guard let bodyEnd = firstIndex(of: delimiter, in: body, from: index) else {
                throw Malformed(offset: index, reason: "a part without a following delimiter")
            }
            parts.append(try part(head: head, data: Array(body[index..<bodyEnd]), offset: index))
            index = bodyEnd + delimiter.count
        }
    }

    private static func part(head: String, data: [UInt8], offset: Int) throws(Malformed) -> Part {
        var disposition: String?
        var contentType: String?
        for line in head.split(separator: "\r\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else {
                throw Malformed(offset: offset, reason: "a header line without a colon: \(line.debugDescription)")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            switch name {
            case "content-disposition": disposition = String(value)
            case "content-type": contentType = String(value)
            default: break
            }
        }
        guard let disposition, disposition.hasPrefix("form-data") else {
            throw Malformed(offset: offset, reason: "a part without Content-Disposition: form-data")
        }
        guard let name = quotedParameter("name", in: disposition) else {
            throw Malformed(offset: offset, reason: "a part without a quoted name")
        }
        return Part(
            name: name,
            fileName: quotedParameter("filename", in: disposition),
            contentType: contentType,
            data: data
        )
    }

    /// The value of `; parameter="…"` in a disposition, up to the next quote (the writer escapes
    /// quotes, so none occurs inside).
    private static func quotedParameter(_ parameter: String, in disposition: String) -> String? {
        let bytes = Array(disposition.utf8)
        guard let start = firstIndex(of: Array("; \(parameter)=\"".utf8), in: bytes, from: 0) else { return nil }
        let valueStart = start + parameter.utf8.count + 4
        guard let end = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: bytes[valueStart..<end], as: UTF8.self)
    }

    /// Where `pattern` first occurs in `bytes` at or after `start`.
    public static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard pattern.count <= bytes.count else { return nil }
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index
            }
            index += 1
        }
        return nil
    }
}
