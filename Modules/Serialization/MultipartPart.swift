internal import CourierHTTP
internal import FoundationEssentials

/// One part of a multipart form: its header block, already encoded, and where its body comes from.
struct MultipartPart: Sendable {
    /// Where a part's body bytes come from.
    enum Body: Sendable {
        /// Bytes held in memory.
        case data(Data)
        /// A whole regular file whose size was read when the part was appended.
        case file(path: String, length: Int64)
        /// A replayable source whose every reader must produce exactly `length` bytes.
        case source(any HTTPBodySource, length: Int64)
        /// An async sequence that can be read once and must produce exactly its declared length.
        case oneShot(MultipartOneShotStream)

        var length: Int64 {
            switch self {
            case .data(let data): Int64(data.count)
            case .file(_, let length): length
            case .source(_, let length): length
            case .oneShot(let stream): stream.length
            }
        }
    }

    /// `Name: Value` CRLF for each header, then the blank line's CRLF.
    let headerBlock: Data
    let body: Body

    /// Encodes `headers` with Content-Disposition first, then Content-Type, then the others in the
    /// order they were added: AFNetworking writes a dictionary, whose order it does not define.
    init(headers: HTTPHeaders, body: Body) {
        var ordered = headers.fields.filter { HTTPHeaders.namesMatch($0.name, "Content-Disposition") }
        ordered += headers.fields.filter { HTTPHeaders.namesMatch($0.name, "Content-Type") }
        ordered += headers.fields.filter {
            !HTTPHeaders.namesMatch($0.name, "Content-Disposition") && !HTTPHeaders.namesMatch($0.name, "Content-Type")
        }
        var block = Data()
        for field in ordered {
            block.append(contentsOf: field.name.utf8)
            block.append(contentsOf: ": ".utf8)
            block.append(contentsOf: field.value.utf8)
            block.append(contentsOf: "\r\n".utf8)
        }
        block.append(contentsOf: "\r\n".utf8)
        headerBlock = block
        self.body = body
    }

    /// The headers of a form field or file: `Content-Disposition: form-data; name="…"[; filename="…"]`
    /// and, for files, `Content-Type`.
    static func headers(name: String, fileName: String?, mimeType: String?) throws(SerializationError) -> HTTPHeaders {
        var disposition = "form-data; name=\"" + MultipartFieldEscaping.escape(name) + "\""
        if let fileName {
            disposition += "; filename=\"" + MultipartFieldEscaping.escape(fileName) + "\""
        }
        var headers = HTTPHeaders()
        do {
            try headers.add(name: "Content-Disposition", value: disposition)
            if let mimeType {
                try headers.add(name: "Content-Type", value: mimeType)
            }
        } catch {
            throw MultipartErrors.invalidPart(
                "a part's name, file name or MIME type cannot go into a header: \(error.reason)",
                underlying: error
            )
        }
        return headers
    }
}

/// The escaping of field names and file names inside `Content-Disposition`.
///
/// AFNetworking copies names and file names verbatim, so a `"` ends the quoted string early and a CR
/// or LF lets a name inject headers or a boundary. Courier follows the WHATWG HTML standard's
/// multipart/form-data encoding instead: `"` becomes `%22`, CR `%0D` and LF `%0A`; nothing else is
/// changed (a literal `%` stays, as browsers leave it), and non-ASCII text is sent as raw UTF-8.
enum MultipartFieldEscaping {
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case 0x22: output.append(contentsOf: "%22".utf8)
            case 0x0D: output.append(contentsOf: "%0D".utf8)
            case 0x0A: output.append(contentsOf: "%0A".utf8)
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
