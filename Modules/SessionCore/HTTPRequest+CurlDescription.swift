public import CourierHTTP
internal import FoundationEssentials

extension HTTPRequest {
    /// The fields whose values are secrets: redacted by ``curlDescription(revealingSecrets:)``.
    static let secretFields: Set<String> = ["authorization", "cookie", "proxy-authorization", "x-api-key"]

    /// A `curl` command line that sends this request, for logs and bug reports (Alamofire's
    /// `cURLDescription`).
    ///
    /// Secrets are redacted unless asked for: the values of `Authorization`, `Cookie`,
    /// `Proxy-Authorization` and `X-API-Key`, and the password of the credential. A body held in
    /// memory is written out; a file, stream or producer body is named, not read.
    ///
    /// ```swift
    /// print(request.curlDescription())
    /// // curl -X 'POST' -H 'Authorization: ***' --data-binary '{"name":"Ada"}' 'https://api.example.com/items'
    /// ```
    /// - Parameter revealingSecrets: Whether to write secrets as they are.
    /// - Returns: The command, each argument quoted for a POSIX shell.
    public func curlDescription(revealingSecrets: Bool = false) -> String {
        var arguments = ["curl", "-X", Self.quoted(method.rawValue)]
        for field in headers {
            let secret = !revealingSecrets && Self.secretFields.contains(field.name.lowercased())
            arguments += ["-H", Self.quoted("\(field.name): \(secret ? "***" : field.value)")]
        }
        if let credential {
            let password = revealingSecrets ? credential.password : "***"
            if credential.schemes.contains(.digest) { arguments.append("--digest") }
            arguments += ["-u", Self.quoted("\(credential.user):\(password)")]
        }
        switch body.kind {
        case .empty:
            break
        case .bytes:
            let bytes = body.bytes ?? Data()
            if let text = String(data: bytes, encoding: .utf8) {
                arguments += ["--data-binary", Self.quoted(text)]
            } else {
                arguments += ["--data-binary", Self.quoted("<\(bytes.count) bytes of binary data>")]
            }
        case .file, .stream, .producer:
            let length = body.length.map { "\($0) bytes" } ?? "unknown length"
            arguments += ["--data-binary", Self.quoted("<\(body.kind) body, \(length)>")]
        }
        arguments.append(Self.quoted(url.absoluteString))
        return arguments.joined(separator: " ")
    }

    /// `text` in single quotes, with each `'` written as `'\''` (POSIX shell quoting).
    private static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
