internal import CourierHTTP
internal import CourierSerialization
internal import FoundationEssentials

/// Turns a parsed command line into the request to send: the method httpie would pick, query items
/// appended to the URL, httpie's default headers, then the header items, and the body from the data
/// items (JSON, a form or multipart) or from stdin.
struct RequestBuilder {
    let line: RequestCommandLine

    /// Methods whose body has no defined meaning (RFC 9110 §9.3): stdin never becomes their body.
    static let bodylessMethods: Set<String> = ["GET", "HEAD", "DELETE", "TRACE", "OPTIONS", "CONNECT"]

    static let jsonAccept = "application/json, */*;q=0.5"

    func build() throws -> HTTPRequest {
        let dataItems = line.items.filter(\.isData)
        var stdinBody: Data?
        let method = line.method ?? (dataItems.isEmpty && !stdinCanBeBody(method: "POST") ? "GET" : "POST")
        if dataItems.isEmpty, stdinCanBeBody(method: method) {
            stdinBody = try StandardInput.readAll()
        }
        guard let url = URL(string: try urlWithQuery()) else {
            throw UsageError(message: "the query items make an invalid URL")
        }
        var request: HTTPRequest
        do {
            request = HTTPRequest(method: try HTTPMethod(validating: method), url: url)
        } catch {
            throw UsageError(message: "not a method: \(method)")
        }
        try request.headers.set(name: "User-Agent", value: "courier")
        let json = line.bodyMode == .json && (line.explicitJSON || !dataItems.isEmpty || stdinBody != nil)
        try request.headers.set(name: "Accept", value: json ? Self.jsonAccept : "*/*")
        if line.download { try request.headers.set(name: "Accept-Encoding", value: "identity") }

        if let stdinBody {
            request.body = HTTPBody(stdinBody)
            try setContentType(json ? "application/json" : "application/x-www-form-urlencoded", on: &request)
        } else if !dataItems.isEmpty {
            let hasFiles = dataItems.contains { if case .file = $0 { true } else { false } }
            switch line.bodyMode {
            case .multipart:
                try multipart(dataItems, into: &request)
            case .form where hasFiles, .json where hasFiles:
                try multipart(dataItems, into: &request)
            case .form:
                request.body = HTTPBody(Data(try formBody(dataItems).utf8))
                try setContentType("application/x-www-form-urlencoded; charset=utf-8", on: &request)
            case .json:
                request.body = HTTPBody(Data(try jsonBody(dataItems).utf8))
                try setContentType("application/json", on: &request)
            }
        }
        for item in line.items {
            switch item {
            case .header(let name, let value):
                do {
                    try request.headers.set(name: name, value: String(value.drop(while: { $0 == " " || $0 == "\t" })))
                } catch {
                    throw UsageError(message: "bad header \(name): \(error)")
                }
            case .removedHeader(let name):
                request.headers.remove(name: name)
            default:
                continue
            }
        }
        if let connectTimeout = line.connectTimeout { request.connectTimeout = connectTimeout }
        return request
    }

    private func stdinCanBeBody(method: String) -> Bool {
        !line.ignoresStdin && !Self.bodylessMethods.contains(method) && !line.items.contains(where: \.isData)
            && StandardInput.hasBody
    }

    private func setContentType(_ value: String, on request: inout HTTPRequest) throws {
        guard !request.headers.contains(name: "Content-Type") else { return }
        try request.headers.set(name: "Content-Type", value: value)
    }

    private func urlWithQuery() throws -> String {
        var url = line.url
        let pairs = line.items.compactMap { item -> String? in
            guard case .query(let name, let value) = item else { return nil }
            return Self.formEscaped(name) + "=" + Self.formEscaped(value)
        }
        guard !pairs.isEmpty else { return url }
        var fragment = ""
        if let hash = url.firstIndex(of: "#") {
            fragment = String(url[hash...])
            url = String(url[..<hash])
        }
        let separator = url.contains("?") ? (url.hasSuffix("?") || url.hasSuffix("&") ? "" : "&") : "?"
        return url + separator + pairs.joined(separator: "&") + fragment
    }

    /// The JSON object of the data items, fields in the order given.
    private func jsonBody(_ items: [RequestItem]) throws -> String {
        var members: [String] = []
        for item in items {
            switch item {
            case .field(let name, let value):
                members.append(try Self.quoted(name) + ": " + Self.quoted(value))
            case .fieldFromFile(let name, let path):
                members.append(try Self.quoted(name) + ": " + Self.quoted(try Self.text(of: path)))
            case .json(let name, let raw):
                members.append(try Self.quoted(name) + ": " + Self.validJSON(raw, item: name))
            case .jsonFromFile(let name, let path):
                members.append(try Self.quoted(name) + ": " + Self.validJSON(try Self.text(of: path), item: name))
            default:
                continue
            }
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    private func formBody(_ items: [RequestItem]) throws -> String {
        var pairs: [String] = []
        for item in items {
            switch item {
            case .field(let name, let value):
                pairs.append(Self.formEscaped(name) + "=" + Self.formEscaped(value))
            case .fieldFromFile(let name, let path):
                pairs.append(Self.formEscaped(name) + "=" + Self.formEscaped(try Self.text(of: path)))
            default:
                throw UsageError(message: "JSON items cannot go in a form")
            }
        }
        return pairs.joined(separator: "&")
    }

    private func multipart(_ items: [RequestItem], into request: inout HTTPRequest) throws {
        var form = MultipartFormData()
        for item in items {
            switch item {
            case .field(let name, let value):
                try form.append(Data(value.utf8), name: name)
            case .fieldFromFile(let name, let path):
                try form.append(Data(try Self.text(of: path).utf8), name: name)
            case .file(let name, let path):
                do {
                    try form.appendFile(atPath: path, name: name)
                } catch {
                    throw CommandFailure("cannot upload \(path): \(error)")
                }
            default:
                throw UsageError(message: "JSON items cannot go in a multipart form")
            }
        }
        try form.apply(to: &request)
    }

    private static func text(of path: String) throws(CommandFailure) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func quoted(_ text: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(text), as: UTF8.self)
    }

    private static func validJSON(_ raw: String, item: String) throws(UsageError) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let trimmed = String(raw.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        do {
            _ = try JSONDecoder().decode(JSONValue.self, from: Data(trimmed.utf8))
        } catch {
            throw UsageError(message: "\(item):= wants JSON, got \(raw.debugDescription)")
        }
        return trimmed
    }

    /// `application/x-www-form-urlencoded` escaping: everything but RFC 3986's unreserved characters.
    static func formEscaped(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                escaped.append(Character(UnicodeScalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                escaped += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return escaped
    }
}
