internal import CourierHTTP
internal import CourierSerialization
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

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
        let hasBody = !dataItems.isEmpty || line.raw != nil || stdinCanBeBody(method: "POST")
        let method = line.method ?? (hasBody ? "POST" : "GET")
        if let raw = line.raw {
            stdinBody = Data(raw.utf8)
        } else if dataItems.isEmpty, stdinCanBeBody(method: method) {
            stdinBody = try StandardInput.readAll()
        }
        guard var url = URL(string: try urlWithQuery()) else {
            throw UsageError(message: "the query items make an invalid URL")
        }
        let authentication = try Authentication.resolve(line, url: url)
        url = Self.withoutUserInfo(url)
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
            let hasFiles = dataItems.contains(where: \.isFile)
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
            case .headerFromFile(let name, let path):
                var value = try Self.text(of: path)
                while value.last == "\n" || value.last == "\r\n" { value.removeLast() }
                do {
                    try request.headers.set(name: name, value: value)
                } catch {
                    throw UsageError(message: "bad header \(name) from \(path): \(error)")
                }
            case .removedHeader(let name):
                request.headers.remove(name: name)
            default:
                continue
            }
        }
        try authentication?.apply(to: &request)
        if let connectTimeout = line.connectTimeout { request.connectTimeout = connectTimeout }
        request.sendsPathAsIs = line.pathAsIs
        return request
    }

    /// The URL without `user:password@`: the credentials go in the request's authentication, never
    /// in the URL libcurl sees (which would send them on its own terms).
    private static func withoutUserInfo(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.user = nil
        components.password = nil
        return components.url ?? url
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
        var pairs: [String] = []
        for item in line.items {
            switch item {
            case .query(let name, let value):
                pairs.append(Self.formEscaped(name) + "=" + Self.formEscaped(value))
            case .queryFromFile(let name, let path):
                pairs.append(Self.formEscaped(name) + "=" + Self.formEscaped(try Self.text(of: path)))
            default:
                continue
            }
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

    /// The JSON body of the data items: each key a path (``NestedJSON``), members in the order given.
    private func jsonBody(_ items: [RequestItem]) throws -> String {
        var body = NestedJSON()
        for item in items {
            switch item {
            case .field(let name, let value):
                try body.set(name, to: .string(value))
            case .fieldFromFile(let name, let path):
                try body.set(name, to: .string(try Self.text(of: path)))
            case .json(let name, let raw):
                try body.set(name, to: .raw(try Self.validJSON(raw, item: name)))
            case .jsonFromFile(let name, let path):
                try body.set(name, to: .raw(try Self.validJSON(try Self.text(of: path), item: name)))
            default:
                continue
            }
        }
        for path in body.replacedPaths {
            StandardStreams.printError(
                "courier: warning: \(path) was given more than once; the last value is sent (name[]=x makes an array)"
            )
        }
        return body.text
    }

    /// The name and value of a data item in a form, where keys are plain names (no JSON paths).
    private static func formPair(_ item: RequestItem) throws -> (name: String, value: String)? {
        switch item {
        case .field(let name, let value):
            return (JSONPath.unescaped(name), value)
        case .fieldFromFile(let name, let path):
            return (JSONPath.unescaped(name), try text(of: path))
        case .json(let name, let raw):
            return (JSONPath.unescaped(name), try formText(ofJSON: try validJSON(raw, item: name)))
        case .jsonFromFile(let name, let path):
            return (JSONPath.unescaped(name), try formText(ofJSON: try validJSON(try text(of: path), item: name)))
        default:
            return nil
        }
    }

    /// httpie lets a form take a raw JSON string, number or boolean (as its text); objects, arrays
    /// and null have no form encoding.
    private static func formText(ofJSON raw: String) throws(UsageError) -> String {
        switch try? JSONDecoder().decode(JSONValue.self, from: Data(raw.utf8)) {
        case .string(let text): return text
        case .int, .double, .bool: return raw
        default: throw UsageError(message: "a form field cannot hold the JSON \(raw.debugDescription): use --json")
        }
    }

    private func formBody(_ items: [RequestItem]) throws -> String {
        var pairs: [String] = []
        for item in items {
            guard let (name, value) = try Self.formPair(item) else { continue }
            pairs.append(Self.formEscaped(name) + "=" + Self.formEscaped(value))
        }
        return pairs.joined(separator: "&")
    }

    private func multipart(_ items: [RequestItem], into request: inout HTTPRequest) throws {
        var form = MultipartFormData()
        for item in items {
            if case .file(let name, let typed, let mimeType) = item {
                let path = Self.expandingHome(typed)
                do {
                    if let mimeType {
                        let fileName = path.split(separator: "/").last.map(String.init) ?? path
                        try form.appendFile(atPath: path, name: name, fileName: fileName, mimeType: mimeType)
                    } else {
                        try form.appendFile(atPath: path, name: name)
                    }
                } catch {
                    throw CommandFailure("cannot upload \(typed): \(error)")
                }
            } else if let (name, value) = try Self.formPair(item) {
                try form.append(Data(value.utf8), name: name)
            }
        }
        try form.apply(to: &request)
    }

    /// `~/x` as the shell would have expanded it, for paths httpie expands itself.
    static func expandingHome(_ path: String) -> String {
        guard path.hasPrefix("~/"), let home = getenv("HOME") else { return path }
        return String(cString: home) + path.dropFirst()
    }

    static func text(of typed: String) throws(CommandFailure) -> String {
        let path = expandingHome(typed)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read \(typed)")
        }
        return String(decoding: data, as: UTF8.self)
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
