internal import FoundationEssentials

/// What `courier [METHOD] URL [items]` asked for, before anything is read or sent.
struct RequestCommandLine {
    enum BodyMode: Equatable {
        case json
        case form
        case multipart
    }

    var method: String?
    var url = ""
    var items: [RequestItem] = []
    var bodyMode = BodyMode.json
    var explicitJSON = false
    var ignoresStdin = false
    var offline = false
    var download = false
    var resumes = false
    var output: String?
    var follows = false
    var maximumRedirects = 30
    var retries = 0
    var timeout: Duration?
    var connectTimeout: Duration?
    var checksStatus = false
    var print: String?
    var verbose = false
    var pretty: String?
    var proxy: String?
    var noProxy = false
    var caFile: String?
    /// `--pin-key`: SPKI SHA-256 pins (`sha256//base64`); the server must match one of them.
    var publicKeyPins: [String] = []
    /// `--pin-cert`: PEM or DER files; the server's chain must verify against these certificates.
    var pinnedCertificateFiles: [String] = []
    /// `--crlfile`: CRL files (PEM or DER); a certificate they list, or a chain they do not cover, is refused.
    var crlFiles: [String] = []
    /// `--ocsp`: whether the server must staple an OCSP response (`required`) or may (`preferred`).
    var ocspStapling: String?
    var clientCertificate: String?
    var clientKey: String?
    var clientPassphrase: String?
    var insecure = false
    /// `--stream`: read the response as Server-Sent Events and print each as it arrives.
    var streamsEvents = false
    /// `--wait-for-network`: after a connection failure to an unreachable host, wait for the
    /// network to come back (the netlink monitor) and try once more.
    var waitsForNetwork = false
    var httpVersion: HTTPVersionChoice = .automatic
    var forcesProgress = false
    var showsMetrics = false
    var reportsPeakRSS = false
    var showsHelp = false
    /// `-a/--auth USER[:PASS]`, or the token with `--auth-type=bearer`.
    var auth: String?
    /// `-A/--auth-type basic|digest|bearer`.
    var authType: String?
    /// `--ignore-netrc`: never take credentials from `~/.netrc`.
    var ignoresNetrc = false
    /// `--debug`: errors also name the library's error and libcurl's code.
    var debug = false
    /// `-q/--quiet`: nothing on stdout (errors and warnings still reach stderr).
    var quiet = false
    /// `--raw TEXT`: the body as given, instead of data items or stdin.
    var raw: String?
    /// `--session NAME|PATH`: headers, cookies and auth kept between invocations, updated.
    var session: String?
    /// `--session-read-only NAME|PATH`: a session used but not changed.
    var readOnlySession: String?
    /// `-x/--compress` once: deflate the body when it gets smaller; twice (`-xx`): always.
    var compress = 0
    /// `--chunked`: send the body with chunked transfer coding.
    var chunked = false
    /// `--all`: print every hop of a followed redirect, not only the last response.
    var printsAllHops = false
    /// `--path-as-is`: send the URL's path with its `.` and `..` segments, as typed.
    var pathAsIs = false

    enum HTTPVersionChoice {
        case automatic
        case http1_1
        case http2
    }
}

/// Parses httpie's command line by hand: options anywhere (`--name=value` or `--name value`, `--`
/// ends them), then `[METHOD] URL [items]`.
///
/// httpie takes any first word of letters as the method when more words follow, so
/// `http localhost name=x` sends the method `localhost` (a flaw its source admits). Here the first
/// word is the method only when it is a known method in any case (`get`, `POST`) or an all-capital
/// word (`PROPFIND`); `localhost name=x` is a URL and an item.
enum RequestGrammar {
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]

    private static let flags: [String: @Sendable (inout RequestCommandLine) -> Void] = [
        "--json": {
            $0.bodyMode = .json
            $0.explicitJSON = true
        },
        "--form": { $0.bodyMode = .form },
        "--multipart": { $0.bodyMode = .multipart },
        "--ignore-stdin": { $0.ignoresStdin = true },
        "--offline": { $0.offline = true },
        "--download": { $0.download = true },
        "--continue": { $0.resumes = true },
        "--follow": { $0.follows = true },
        "--check-status": { $0.checksStatus = true },
        "--verbose": { $0.verbose = true },
        "--headers": { $0.print = "h" },
        "--body": { $0.print = "b" },
        "--http1.1": { $0.httpVersion = .http1_1 },
        "--http2": { $0.httpVersion = .http2 },
        "--no-proxy": { $0.noProxy = true },
        "--insecure": { $0.insecure = true },
        "--stream": { $0.streamsEvents = true },
        "--wait-for-network": { $0.waitsForNetwork = true },
        "--progress": { $0.forcesProgress = true },
        "--metrics": { $0.showsMetrics = true },
        "--report-rss": { $0.reportsPeakRSS = true },
        "--help": { $0.showsHelp = true },
        "--ignore-netrc": { $0.ignoresNetrc = true },
        "--debug": { $0.debug = true },
        "--quiet": { $0.quiet = true },
        "--compress": { $0.compress += 1 },
        "-xx": { $0.compress += 2 },
        "--chunked": { $0.chunked = true },
        "--all": { $0.printsAllHops = true },
        "--path-as-is": { $0.pathAsIs = true },
    ]

    private static let options: Set<String> = [
        "--print", "--output", "--timeout", "--connect-timeout", "--max-redirects", "--retries", "--proxy",
        "--cacert", "--pretty", "--header", "--pin-key", "--pin-cert", "--cert", "--key", "--pass",
        "--crlfile", "--ocsp", "--auth", "--auth-type",
        "--verify", "--cert-key", "--cert-key-pass", "--raw", "--session", "--session-read-only",
    ]

    private static let aliases = [
        "-j": "--json", "-f": "--form", "-I": "--ignore-stdin", "-d": "--download", "-c": "--continue",
        "-F": "--follow", "-v": "--verbose", "-h": "--headers", "-b": "--body", "-p": "--print",
        "-o": "--output", "-H": "--header", "-k": "--insecure", "-a": "--auth", "-A": "--auth-type", "-q": "--quiet",
        "-x": "--compress",
    ]

    /// Every flag, option and alias of the request grammar; `courier ws` takes a subset of them.
    static var specification: ArgumentSpecification {
        var specification = ArgumentSpecification(flags: Set(flags.keys), options: options, aliases: aliases)
        specification.variadicPositionals = true
        return specification
    }

    static func parse(_ arguments: [String], registry: CommandRegistry) throws(UsageError) -> RequestCommandLine {
        var line = RequestCommandLine()
        let specification = specification
        let parsed = try ParsedArguments.parse(arguments, specification)
        for occurrence in parsed.occurrences {
            if let value = occurrence.value {
                try apply(occurrence.name, value, to: &line)
            } else {
                flags[occurrence.name]?(&line)
            }
        }
        let positionals = parsed.positionals
        if line.showsHelp { return line }
        try assign(positionals, to: &line, registry: registry)
        try check(line)
        return line
    }

    private static func apply(_ name: String, _ value: String, to line: inout RequestCommandLine) throws(UsageError) {
        switch name {
        case "--print":
            guard !value.isEmpty, value.allSatisfy({ "HBhbm".contains($0) }) else {
                throw UsageError(message: "--print takes letters of HBhbm, not \(value.debugDescription)")
            }
            line.print = value
        case "--output": line.output = value
        case "--timeout": line.timeout = try seconds(value, name)
        case "--connect-timeout": line.connectTimeout = try seconds(value, name)
        case "--max-redirects": line.maximumRedirects = try count(value, name)
        case "--retries": line.retries = try count(value, name)
        case "--proxy": line.proxy = value
        case "--cacert": line.caFile = value
        case "--pin-key":
            guard value.hasPrefix("sha256//") else {
                throw UsageError(
                    message: "--pin-key takes sha256//<base64 of the SPKI digest>, not \(value.debugDescription)"
                )
            }
            line.publicKeyPins.append(value)
        case "--pin-cert": line.pinnedCertificateFiles.append(value)
        case "--crlfile": line.crlFiles.append(value)
        case "--ocsp":
            guard ["required", "preferred"].contains(value) else {
                throw UsageError(message: "--ocsp takes required or preferred, not \(value.debugDescription)")
            }
            line.ocspStapling = value
        case "--auth": line.auth = value
        case "--auth-type": line.authType = value
        case "--cert": line.clientCertificate = value
        // httpie's names, and the earlier --key and --pass.
        case "--cert-key", "--key": line.clientKey = value
        case "--cert-key-pass", "--pass": line.clientPassphrase = value
        case "--raw": line.raw = value
        case "--session": line.session = value
        case "--session-read-only": line.readOnlySession = value
        case "--verify":
            // httpie: yes/true (the default), no/false (-k), or a CA bundle (--cacert).
            switch value.lowercased() {
            case "yes", "true": line.insecure = false
            case "no", "false": line.insecure = true
            default: line.caFile = value
            }
        case "--pretty":
            guard ["all", "colors", "format", "none"].contains(value) else {
                throw UsageError(message: "--pretty takes all, colors, format or none, not \(value.debugDescription)")
            }
            line.pretty = value
        default:
            // --header 'Name: value', the old commands' spelling of a header item.
            guard let colon = value.firstIndex(of: ":"), colon != value.startIndex else {
                throw UsageError(message: "--header wants 'Name: value', got \(value.debugDescription)")
            }
            line.items.append(
                .header(name: String(value[..<colon]), value: String(value[value.index(after: colon)...]))
            )
        }
    }

    static func seconds(_ value: String, _ name: String) throws(UsageError) -> Duration {
        guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
            throw UsageError(message: "\(name) takes a positive number of seconds, not \(value.debugDescription)")
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    private static func count(_ value: String, _ name: String) throws(UsageError) -> Int {
        guard let count = Int(value), count >= 0 else {
            throw UsageError(message: "\(name) takes a whole number, not \(value.debugDescription)")
        }
        return count
    }

    /// `[METHOD] URL [items]`.
    private static func assign(
        _ positionals: [String],
        to line: inout RequestCommandLine,
        registry: CommandRegistry
    ) throws(UsageError) {
        var words = positionals[...]
        if words.count >= 2, let first = words.first, isMethod(first) {
            line.method = first.uppercased()
            words = words.dropFirst()
        }
        guard let url = words.first else { throw UsageError(message: "missing URL") }
        if let command = registry.command(url) {
            throw UsageError(
                message: "\(command.word) is ambiguous here: it is a courier command (courier \(command.word) …); "
                    + "for a host named \(command.word), write http://\(command.word)"
            )
        }
        line.url = try normalizedURL(url)
        for word in words.dropFirst() {
            guard let item = RequestItem(word) else {
                throw UsageError(message: "not a request item: \(word.debugDescription) (see courier --help)")
            }
            line.items.append(item)
        }
    }

    private static func isMethod(_ word: String) -> Bool {
        guard !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return knownMethods.contains(word.uppercased()) || word == word.uppercased()
    }

    /// httpie's URL shorthands: `:8080/x` is `http://localhost:8080/x`, and a URL without a scheme
    /// gets `http://`.
    static func normalizedURL(_ text: String) throws(UsageError) -> String {
        var text = text
        if text.hasPrefix(":") {
            let rest = text.dropFirst()
            text = "http://localhost" + (rest.first == "/" ? "" : ":") + rest
        } else if !text.contains("://") {
            text = "http://" + text
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw UsageError(message: "not an http:// or https:// URL: \(text)")
        }
        return text
    }

    private static func check(_ line: RequestCommandLine) throws(UsageError) {
        if line.resumes && !(line.download && line.output != nil) {
            throw UsageError(message: "--continue needs --download and --output FILE")
        }
        if line.explicitJSON, line.items.contains(where: \.isFile) {
            throw UsageError(message: "file@path items are multipart parts: use --form or --multipart, not --json")
        }
        if line.proxy != nil && line.noProxy { throw UsageError(message: "--proxy and --no-proxy conflict") }
        let pins = !line.publicKeyPins.isEmpty || !line.pinnedCertificateFiles.isEmpty
        if line.insecure && pins {
            throw UsageError(message: "--insecure and --pin-key/--pin-cert conflict: pinning needs verification")
        }
        if line.insecure && (!line.crlFiles.isEmpty || line.ocspStapling != nil) {
            throw UsageError(message: "--insecure and --crlfile/--ocsp conflict: revocation needs verification")
        }
        if !line.publicKeyPins.isEmpty && !line.pinnedCertificateFiles.isEmpty {
            throw UsageError(message: "give --pin-key or --pin-cert, not both")
        }
        if line.streamsEvents && line.download {
            throw UsageError(message: "--stream and --download conflict")
        }
        if line.clientCertificate == nil && (line.clientKey != nil || line.clientPassphrase != nil) {
            throw UsageError(message: "--cert-key and --cert-key-pass go with --cert")
        }
        if line.session != nil && line.readOnlySession != nil {
            throw UsageError(message: "give --session or --session-read-only, not both")
        }
        if line.raw != nil && line.items.contains(where: \.isData) {
            throw UsageError(message: "--raw is the whole body: give it or data items, not both")
        }
    }
}
