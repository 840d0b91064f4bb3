internal import FoundationEssentials

/// httpie 3.2's session file: the headers, cookies and authentication that `--session` keeps
/// between invocations, in the JSON layout httpie writes (`httpie/sessions.py`), so that one file
/// serves both tools.
///
/// httpie 3.2 writes headers and cookies as lists of objects; the dictionaries of httpie 3.0 and 3.1
/// (`{"Name": "value"}`, `{"name": {"value": …}}`) are read too, and written back as lists.
/// Authentication is `{"type", "raw_auth"}` (what followed `-a`), or the older
/// `{"type", "username", "password"}`; no type means none.
struct SessionFile: Equatable {
    struct Header: Codable, Equatable {
        var name: String
        var value: String
    }

    /// A cookie as httpie keeps it: `expires` in Unix seconds, `null` for a session cookie; a
    /// domain with a leading dot matches subdomains, an empty or `null` one is the session's host.
    struct StoredCookie: Codable, Equatable {
        var name: String
        var value: String
        var domain: String?
        var path: String?
        var expires: Int64?
        var secure: Bool?

        enum CodingKeys: String, CodingKey {
            case name, value, domain, path, expires, secure
        }

        init(name: String, value: String, domain: String?, path: String?, expires: Int64?, secure: Bool?) {
            self.name = name
            self.value = value
            self.domain = domain
            self.path = path
            self.expires = expires
            self.secure = secure
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name) ?? ""
            value = try container.decodeIfPresent(String.self, forKey: .value) ?? ""
            domain = try container.decodeIfPresent(String.self, forKey: .domain)
            path = try container.decodeIfPresent(String.self, forKey: .path)
            // Python's cookie jar keeps whole seconds, but a hand-edited file may hold a fraction.
            expires = try container.decodeIfPresent(Double.self, forKey: .expires).map { Int64($0) }
            secure = try container.decodeIfPresent(Bool.self, forKey: .secure)
        }

        /// Every key written, `null` included, as httpie writes them.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(value, forKey: .value)
            try container.encode(domain, forKey: .domain)
            try container.encode(path ?? "/", forKey: .path)
            try container.encode(expires, forKey: .expires)
            try container.encode(secure ?? false, forKey: .secure)
        }
    }

    /// `type` is an auth type (`basic`, `digest`, `bearer`); `rawAuth` what `-a` was given.
    struct Auth: Equatable {
        var type: String?
        var rawAuth: String?
    }

    var meta: [String: String] = [:]
    var headers: [Header] = []
    var cookies: [StoredCookie] = []
    var auth = Auth()

    /// The format version written to `__meta__.httpie` when the file has none: the httpie whose
    /// layout this is.
    static let formatVersion = "3.2.4"
}

extension SessionFile: Codable {
    private enum Keys: String, CodingKey {
        case meta = "__meta__"
        case headers, cookies, auth
    }

    private enum AuthKeys: String, CodingKey {
        case type, username, password
        case rawAuth = "raw_auth"
    }

    private struct LegacyCookie: Decodable {
        var value: String?
        var domain: String?
        var path: String?
        var expires: Double?
        var secure: Bool?
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        meta = (try? container.decodeIfPresent([String: String].self, forKey: .meta)) ?? [:]
        if let list = try? container.decodeIfPresent([Header].self, forKey: .headers) {
            headers = list
        } else if let legacy = try? container.decodeIfPresent([String: String].self, forKey: .headers) {
            headers = legacy.sorted { $0.key < $1.key }.map { Header(name: $0.key, value: $0.value) }
        }
        if let list = try? container.decodeIfPresent([StoredCookie].self, forKey: .cookies) {
            cookies = list
        } else if let legacy = try? container.decodeIfPresent([String: LegacyCookie].self, forKey: .cookies) {
            cookies = legacy.sorted { $0.key < $1.key }.map { name, cookie in
                StoredCookie(
                    name: name,
                    value: cookie.value ?? "",
                    domain: cookie.domain,
                    path: cookie.path,
                    expires: cookie.expires.map { Int64($0) },
                    secure: cookie.secure
                )
            }
        }
        if container.contains(.auth), let auth = try? container.nestedContainer(keyedBy: AuthKeys.self, forKey: .auth) {
            let type = try auth.decodeIfPresent(String.self, forKey: .type)
            if let raw = try auth.decodeIfPresent(String.self, forKey: .rawAuth) {
                self.auth = Auth(type: type, rawAuth: raw)
            } else if let user = try auth.decodeIfPresent(String.self, forKey: .username) {
                let password = try auth.decodeIfPresent(String.self, forKey: .password)
                self.auth = Auth(type: type, rawAuth: password.map { "\(user):\($0)" } ?? user)
            } else {
                self.auth = Auth(type: type, rawAuth: nil)
            }
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(meta, forKey: .meta)
        try container.encode(headers, forKey: .headers)
        try container.encode(cookies, forKey: .cookies)
        var auth = container.nestedContainer(keyedBy: AuthKeys.self, forKey: .auth)
        try auth.encode(self.auth.type, forKey: .type)
        if self.auth.type == nil {
            // httpie's empty auth: every key present, each `null`.
            try auth.encode(String?.none, forKey: .username)
            try auth.encode(String?.none, forKey: .password)
        } else {
            try auth.encode(self.auth.rawAuth, forKey: .rawAuth)
        }
    }

    /// Reads the file at `path`; `nil` when there is none yet.
    static func read(_ path: String) throws(CommandFailure) -> SessionFile? {
        let data: Data
        do {
            data = try Data(contentsOf: URL(filePath: path))
        } catch {
            guard FileManager.default.fileExists(atPath: path) else { return nil }
            throw CommandFailure("cannot read the session file \(path): \(error)")
        }
        do {
            return try JSONDecoder().decode(SessionFile.self, from: data)
        } catch {
            throw CommandFailure("the session file \(path) is not a session's JSON: \(error)")
        }
    }

    /// Writes the file readable by its owner only (it holds credentials and cookies), through a
    /// temporary file renamed into place, so a crash never leaves half a session.
    func write(to path: String) throws(CommandFailure) {
        var file = self
        file.meta["httpie"] = file.meta["httpie"] ?? Self.formatVersion
        file.meta["about"] = "HTTPie session file"
        file.meta["help"] = "https://httpie.io/docs#sessions"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data: Data
        do {
            data = try encoder.encode(file)
        } catch {
            throw CommandFailure("cannot encode the session: \(error)")
        }
        data.append(UInt8(ascii: "\n"))
        try PrivateFile.write(data, to: path)
    }
}
