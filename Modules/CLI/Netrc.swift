internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// The credentials `~/.netrc` holds for a host, read as httpie reads them (through Python's
/// `netrc` module, by way of `requests`): the file named by `NETRC`, else `~/.netrc`; the
/// `machine` entry whose name is the URL's host (no port), else the `default` entry; its `login`
/// (or `account`) and `password`. `macdef` bodies are skipped to their blank line. A file that is
/// missing or unreadable gives nothing, as in httpie.
struct Netrc {
    struct Entry: Equatable {
        var login = ""
        var account = ""
        var password = ""
    }

    private(set) var machines: [String: Entry] = [:]
    private(set) var fallback: Entry?

    /// The file httpie reads: `$NETRC`, else `$HOME/.netrc`.
    static var path: String? {
        if let explicit = getenv("NETRC") { return String(cString: explicit) }
        guard let home = getenv("HOME") else { return nil }
        return String(cString: home) + "/.netrc"
    }

    /// The user and password for `host`, if the file has them.
    static func credentials(forHost host: String) -> (user: String, password: String)? {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return nil }
        let netrc = Netrc(String(decoding: data, as: UTF8.self))
        guard let entry = netrc.machines[host.lowercased()] ?? netrc.fallback else { return nil }
        let user = entry.login.isEmpty ? entry.account : entry.login
        return (user, entry.password)
    }

    init(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        var tokens: [Substring] = []
        // macdef's body runs to the next empty line; it is not made of tokens.
        while let line = lines.popFirst() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if let index = words.firstIndex(of: "macdef") {
                tokens += words[..<index]
                while let body = lines.popFirst(), !body.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {}
                continue
            }
            if let comment = words.firstIndex(where: { $0.hasPrefix("#") }) {
                tokens += words[..<comment]
            } else {
                tokens += words
            }
        }
        var current: Entry?
        var name: String?
        func store() {
            guard let current else { return }
            if let name {
                if machines[name] == nil { machines[name] = current }
            } else if fallback == nil {
                fallback = current
            }
        }
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            let value = index + 1 < tokens.count ? String(tokens[index + 1]) : ""
            switch token {
            case "machine":
                store()
                current = Entry()
                name = value.lowercased()
                index += 2
            case "default":
                store()
                current = Entry()
                name = nil
                index += 1
            case "login", "user":
                current?.login = value
                index += 2
            case "account":
                current?.account = value
                index += 2
            case "password":
                current?.password = value
                index += 2
            default:
                index += 1
            }
        }
        store()
    }
}
