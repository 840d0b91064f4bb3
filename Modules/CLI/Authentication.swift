internal import CourierHTTP
internal import CourierSerialization
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// `-a/--auth USER[:PASS]` with `-A/--auth-type basic|digest|bearer`, credentials in the URL
/// (`http://user:pass@host/`), and `~/.netrc`, resolved as httpie resolves them:
///
/// - `--auth` wins; without it, the URL's user and password (when no `--auth-type` is given), then
///   `~/.netrc`'s entry for the host unless `--ignore-netrc`.
/// - Basic is the default type. Basic and Bearer go in `Authorization` at once (so `--offline`
///   shows them); Digest is answered by the transport when the server challenges, through the
///   request's `HTTPCredential`.
/// - A missing password is asked for on the terminal, without echo; with no terminal on stdin it
///   is a usage error, as it cannot be asked for.
///
/// Credentials belong to the URL's origin: the session drops `Authorization` and the credential
/// when a followed redirect leaves it.
struct Authentication: Equatable {
    enum Scheme: String, CaseIterable {
        case basic
        case digest
        case bearer
    }

    let scheme: Scheme
    let user: String
    let password: String

    /// What the command line and the environment ask for; `nil` for no authentication.
    static func resolve(_ line: RequestCommandLine, url: URL) throws(UsageError) -> Authentication? {
        let scheme = try line.authType.map(Self.scheme(named:)) ?? .basic
        if scheme == .bearer {
            guard let token = line.auth, !token.isEmpty else {
                throw UsageError(message: "--auth-type=bearer needs the token: -a TOKEN")
            }
            return Authentication(scheme: .bearer, user: token, password: "")
        }
        var user: String
        var password: String?
        if let given = line.auth {
            if let colon = given.firstIndex(of: ":") {
                user = String(given[..<colon])
                password = String(given[given.index(after: colon)...])
            } else {
                user = given
            }
        } else if line.authType == nil, let urlUser = url.user(percentEncoded: false), !urlUser.isEmpty {
            user = urlUser
            password = url.password(percentEncoded: false) ?? ""
        } else if !line.ignoresNetrc, let host = url.host, let entry = Netrc.credentials(forHost: host) {
            user = entry.user
            password = entry.password
        } else if line.authType != nil {
            throw UsageError(message: "--auth-type needs --auth USER[:PASS] (or an entry in ~/.netrc)")
        } else {
            return nil
        }
        guard let password else {
            return Authentication(scheme: scheme, user: user, password: try prompt(user: user, url: url))
        }
        return Authentication(scheme: scheme, user: user, password: password)
    }

    private static func scheme(named name: String) throws(UsageError) -> Scheme {
        guard let scheme = Scheme(rawValue: name.lowercased()) else {
            throw UsageError(message: "--auth-type takes basic, digest or bearer, not \(name.debugDescription)")
        }
        return scheme
    }

    /// Adds the credential to `request`.
    func apply(to request: inout HTTPRequest) throws {
        switch scheme {
        case .basic:
            try request.headers.set(
                name: "Authorization",
                value: HTTPRequestSerializer.basicAuthorization(username: user, password: password)
            )
        case .bearer:
            do {
                try request.headers.set(name: "Authorization", value: "Bearer \(user)")
            } catch {
                throw UsageError(message: "the bearer token cannot go in a header: \(error)")
            }
        case .digest:
            request.credential = HTTPCredential(user: user, password: password, schemes: .digest)
        }
    }

    /// Asks for the password on the terminal with echo off, as httpie's getpass does.
    private static func prompt(user: String, url: URL) throws(UsageError) -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            throw UsageError(
                message: "--auth \(user) has no password and stdin is not a terminal to ask for it: "
                    + "give -a \(user):PASSWORD (or an entry in ~/.netrc)"
            )
        }
        let authority = MessageWriter.authority(of: url) ?? ""
        StandardStreams.writeError("http: password for \(user)@\(authority): ")
        var saved = termios()
        let canSilence = tcgetattr(STDIN_FILENO, &saved) == 0
        if canSilence {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if canSilence { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            StandardStreams.writeError("\n")
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
