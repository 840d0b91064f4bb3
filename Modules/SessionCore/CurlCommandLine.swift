internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// The options of a `curl` command that makes the `curl` tool send a request the way Courier's
/// libcurl transport sends it, each option with its value quoted for a POSIX shell.
///
/// The `curl` tool adds fields of its own that the transport does not, so the command takes them
/// out again: `User-Agent` (the tool sends `curl/<version>`), `Content-Type` on a body (the tool
/// sends `application/x-www-form-urlencoded`) and `Expect: 100-continue` on a body over 1024 bytes.
/// `Host`, `Accept: */*` and the body's framing are the same in both.
struct CurlCommandLine {
    /// The fields whose values are secrets unless asked for.
    static let secretFields: Set<String> = ["authorization", "cookie", "proxy-authorization", "x-api-key"]

    /// What stands for a secret value.
    static let redacted = "***"

    /// The largest body the `curl` tool sends without `Expect: 100-continue` (curl before 8.2 asks
    /// above 1024 bytes, later versions above 1 MiB).
    static let largestBodyWithoutExpect: Int64 = 1024

    /// The options in order: `curl` first, the URL last; each is one line of the multi-line form.
    private(set) var options: [[String]] = [["curl"]]

    /// Builds the command.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - additionalHeaders: Fields added to the request's where it lacks them.
    ///   - cookies: The cookie store's cookies for the request, in sending order.
    ///   - decompressesResponse: Whether the transport asks for compressed responses.
    ///   - revealingSecrets: Whether secrets are written as they are.
    init(
        request: HTTPRequest,
        additionalHeaders: HTTPHeaders,
        cookies: [Cookie],
        decompressesResponse: Bool,
        revealingSecrets: Bool
    ) {
        var headers = request.headers
        headers.addMissing(from: additionalHeaders)
        if request.url.absoluteString.contains(where: { "[]{}".contains($0) }) {
            // The tool reads brackets and braces in a URL as a glob pattern.
            options.append(["--globoff"])
        }
        if request.method == .head {
            // `-X HEAD` would make the tool wait for a body the response does not have.
            options.append(["--head"])
        } else {
            options.append(["-X", Self.quoted(request.method.rawValue)])
        }
        if let credential = request.credential {
            appendCredential(credential, revealingSecrets: revealingSecrets)
        }
        if let stored = Self.cookieLine(cookies, revealingSecrets: revealingSecrets) {
            if headers.contains(name: "Cookie") {
                // libcurl sends its store's `Cookie` field before the request's own, and the tool
                // drops a `-b` string when a `Cookie` header is given: two fields say it.
                appendHeader("Cookie: \(stored)")
            } else {
                options.append(["-b", Self.quoted(stored)])
            }
        }
        let sendsBody = request.sendsBody
        for field in headers {
            let secret = !revealingSecrets && Self.secretFields.contains(field.name.lowercased())
            let value = secret ? Self.redacted : field.value
            // `Name;` is the tool's spelling of a field with an empty value (`Name:` removes it).
            appendHeader(value.isEmpty ? "\(field.name);" : "\(field.name): \(value)")
        }
        if !headers.contains(name: "User-Agent") { appendHeader("User-Agent:") }
        if sendsBody {
            if !headers.contains(name: "Content-Type") { appendHeader("Content-Type:") }
            if !headers.contains(name: "Expect"), (request.body.length ?? .max) > Self.largestBodyWithoutExpect {
                appendHeader("Expect:")
            }
        }
        if decompressesResponse && !headers.contains(name: "Accept-Encoding") {
            options.append(["--compressed"])
        }
        if request.sendsPathAsIs { options.append(["--path-as-is"]) }
        if sendsBody { appendBody(request.body) }
        options.append([Self.quoted(request.url.absoluteString)])
    }

    /// The command laid out in `style`.
    func rendered(_ style: CurlDescriptionStyle) -> String {
        let lines = options.map { $0.joined(separator: " ") }
        switch style {
        case .singleLine: return lines.joined(separator: " ")
        case .multiLine: return lines.joined(separator: " \\\n  ")
        }
    }

    /// `text` in single quotes, with each `'` written as `'\''` (POSIX shell quoting).
    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The store's cookies as a `Cookie` value, each value redacted unless asked for; `nil` when
    /// there are none.
    private static func cookieLine(_ cookies: [Cookie], revealingSecrets: Bool) -> String? {
        guard !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\(revealingSecrets ? $0.value : redacted)" }.joined(separator: "; ")
    }

    private mutating func appendCredential(_ credential: HTTPCredential, revealingSecrets: Bool) {
        // libcurl answers the challenge with the strongest of the schemes it was given; `--anyauth`
        // is the tool's nearest to Basic and Digest together.
        if credential.schemes.contains(.digest) {
            options.append([credential.schemes.contains(.basic) ? "--anyauth" : "--digest"])
        }
        let password = revealingSecrets ? credential.password : Self.redacted
        options.append(["-u", Self.quoted("\(credential.user):\(password)")])
    }

    private mutating func appendHeader(_ line: String) {
        options.append(["-H", Self.quoted(line)])
    }

    private mutating func appendBody(_ body: HTTPBody) {
        switch body.kind {
        case .empty, .bytes:
            let bytes = body.bytes ?? Data()
            // An argument cannot hold a NUL byte, and bytes that are not UTF-8 do not survive a
            // terminal: both are named, not written.
            if let text = String(data: bytes, encoding: .utf8), !text.contains("\0") {
                // `--data-raw`, not `-d`: `-d` reads a file when the body starts with `@`.
                options.append(["--data-raw", Self.quoted(text)])
            } else {
                options.append(["--data-binary", Self.quoted("<\(bytes.count) bytes of binary data>")])
            }
        case .file, .stream, .producer:
            let length = body.length.map { "\($0) bytes" } ?? "unknown length"
            options.append(["--data-binary", Self.quoted("<\(body.kind) body, \(length)>")])
        }
    }
}
