internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// `--session NAME|PATH` and `--session-read-only`: httpie's persistent sessions.
///
/// As httpie 3.2 does: the session's headers go under the command line's (which replace them),
/// its cookies go to the transport's cookie store before the request, and its authentication is
/// used when `-a` is not given. Afterwards the file gets the command line's headers (but never
/// `Content-*`, `If-*` or `Cookie`, which belong to one request; a `Cookie` header's pairs become
/// cookies), every cookie the store then holds, and `-a`'s credentials. `--session-read-only`
/// uses a session without changing it, but creates it when it does not exist yet.
struct PersistentSession {
    let path: String
    let readOnly: Bool
    let isNew: Bool
    /// The host a cookie with no domain belongs to.
    let host: String
    var file: SessionFile

    static let requestScopedPrefixes = ["content-", "if-"]

    /// The session the command line names, read from its file; `nil` without `--session`.
    static func open(_ line: RequestCommandLine) throws -> PersistentSession? {
        guard let value = line.session ?? line.readOnlySession else { return nil }
        guard let url = URL(string: line.url), let host = url.host else {
            throw UsageError(message: "--session needs a URL with a host")
        }
        let hostHeader = line.items.compactMap { item -> String? in
            if case .header(let name, let value) = item, name.lowercased() == "host" { return value.trimmed }
            return nil
        }.last
        let path = try SessionLocation.path(value, url: url, hostHeader: hostHeader)
        let existing = try SessionFile.read(path)
        return PersistentSession(
            path: path,
            readOnly: line.session == nil,
            isNew: existing == nil,
            host: hostHeader.map { String($0.prefix { $0 != ":" }) } ?? host,
            file: existing ?? SessionFile()
        )
    }

    /// The session's credentials, when the command line gives none.
    func applyAuth(to line: inout RequestCommandLine) {
        guard line.auth == nil, let type = file.auth.type, let raw = file.auth.rawAuth else { return }
        line.auth = raw
        line.authType = type
    }

    /// The session's headers, under the command line's; a `Cookie` header goes to the store.
    func applyHeaders(to request: inout HTTPRequest, line: RequestCommandLine) throws {
        let named = Set(line.items.compactMap(\.headerName).map { $0.lowercased() })
        for header in file.headers where !named.contains(header.name.lowercased()) {
            do {
                try request.headers.set(name: header.name, value: header.value)
            } catch {
                throw CommandFailure("the session \(path) has a bad header \(header.name): \(error)")
            }
        }
        request.headers.remove(name: "Cookie")
    }

    /// Puts the session's cookies, and a `Cookie` header's pairs, in `store`.
    func seed(_ store: any CookieStore, line: RequestCommandLine) async throws {
        try await store.setCookies(cookies(line))
    }

    /// The session's cookies, then a `Cookie` header's pairs, as the cookie store takes them.
    func cookies(_ line: RequestCommandLine) -> [Cookie] {
        let stored = file.cookies.map { stored in
            let domain = stored.domain ?? ""
            return Cookie(
                name: stored.name,
                value: stored.value,
                domain: domain.isEmpty ? host : domain,
                path: stored.path ?? "/",
                expiry: stored.expires.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                isSecure: stored.secure ?? false,
                isHostOnly: !domain.hasPrefix(".")
            )
        }
        return stored + Self.cookiePairs(line).map { Cookie(name: $0.name, value: $0.value, domain: host) }
    }

    /// Writes the session back, unless it is read-only and already existed.
    func save(line: RequestCommandLine, givenAuth: String?, store: (any CookieStore)?) async throws {
        guard !readOnly || isNew else { return }
        var updated = file
        var headers: [SessionFile.Header] = []
        for item in line.items {
            guard case .header(let name, let value) = item else { continue }
            let lowered = name.lowercased()
            guard lowered != "cookie", !Self.requestScopedPrefixes.contains(where: lowered.hasPrefix) else { continue }
            headers.removeAll { $0.name.lowercased() == lowered }
            headers.append(SessionFile.Header(name: name, value: value.trimmed))
        }
        let given = Set(headers.map { $0.name.lowercased() })
        updated.headers = headers + file.headers.filter { !given.contains($0.name.lowercased()) }
        if let store {
            updated.cookies = try await store.allCookies().map { cookie in
                SessionFile.StoredCookie(
                    name: cookie.name,
                    value: cookie.value,
                    domain: cookie.isHostOnly ? cookie.domain : "." + cookie.domain,
                    path: cookie.path,
                    expires: cookie.expiry.map { Int64($0.timeIntervalSince1970) },
                    secure: cookie.isSecure
                )
            }
        }
        if let givenAuth {
            updated.auth = SessionFile.Auth(type: line.authType?.lowercased() ?? "basic", rawAuth: givenAuth)
        }
        try updated.write(to: path)
    }

    /// `Cookie: a=1; b=2` from the command line, as name and value pairs.
    static func cookiePairs(_ line: RequestCommandLine) -> [(name: String, value: String)] {
        line.items.flatMap { item -> [(name: String, value: String)] in
            guard case .header(let name, let value) = item, name.lowercased() == "cookie" else { return [] }
            return value.split(separator: ";").compactMap { pair in
                guard let equals = pair.firstIndex(of: "=") else { return nil }
                return (String(pair[..<equals]).trimmed, String(pair[pair.index(after: equals)...]).trimmed)
            }
        }
    }
}

extension RequestItem {
    /// The header an item sets or removes, if it is a header item.
    fileprivate var headerName: String? {
        switch self {
        case .header(let name, _), .headerFromFile(let name, _), .removedHeader(let name): name
        default: nil
        }
    }
}
