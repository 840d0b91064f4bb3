/// Parses `courier ws URL [HEADER:VALUE ...] [options]`.
///
/// The options `courier ws` shares with the HTTP commands (trust, proxy, headers, authentication,
/// timeouts, `--verbose`) are handed to ``RequestGrammar``, so they are spelled, checked and
/// applied exactly as there; the WebSocket options are read here. Options that make no sense for
/// a WebSocket (a body, downloads, `--follow`, output selection) are unknown options.
enum WebSocketGrammar {
    static let usage = "courier ws URL [HEADER:VALUE ...] [OPTIONS]   (courier ws --help for more)"

    /// The request grammar's flags that apply to the handshake.
    static let sharedFlags: Set<String> = [
        "--verbose", "--debug", "--no-proxy", "--insecure", "--ignore-stdin", "--report-rss", "--wait-for-network",
        "--ignore-netrc",
    ]

    /// The request grammar's options that apply to the handshake.
    static let sharedOptions: Set<String> = [
        "--timeout", "--connect-timeout", "--proxy", "--cacert", "--verify", "--header", "--pin-key", "--pin-cert",
        "--crlfile", "--ocsp", "--cert", "--cert-key", "--key", "--cert-key-pass", "--pass", "--auth", "--auth-type",
    ]

    static let flags: Set<String> = ["--no-compression", "--help"]
    static let options: Set<String> = [
        "--subprotocol", "--max-message-size", "--ping-interval", "--binary-to", "--max-messages",
    ]

    /// Every option `courier ws` takes, for completion.
    static var allOptions: [String] { (sharedFlags.union(sharedOptions).union(flags).union(options)).sorted() }

    static func parse(_ words: [String], registry: CommandRegistry) throws(UsageError) -> WebSocketCommandLine {
        var line = WebSocketCommandLine()
        let parsed = try ParsedArguments.parse(words, specification)
        var shared: [String] = []
        for occurrence in parsed.occurrences {
            switch (occurrence.name, occurrence.value) {
            case ("--help", _): line.showsHelp = true
            case ("--no-compression", _): line.compresses = false
            case ("--subprotocol", let name?): line.subprotocols.append(name)
            case ("--max-message-size", let text?): line.maximumMessageSize = try size(text, occurrence.name)
            case ("--ping-interval", let text?): line.pingInterval = try RequestGrammar.seconds(text, occurrence.name)
            case ("--binary-to", let path?): line.binaryFile = path
            case ("--max-messages", let text?):
                guard let count = Int(text), count > 0 else {
                    throw UsageError(
                        message: "--max-messages takes a positive whole number, not \(text.debugDescription)"
                    )
                }
                line.maximumMessages = count
            case (let name, let value?): shared.append(name + "=" + value)
            case (let name, nil): shared.append(name)
            }
        }
        if line.showsHelp { return line }
        guard let url = parsed.positionals.first else { throw UsageError(message: "missing URL") }
        if RequestGrammar.knownMethods.contains(url.uppercased()) {
            throw UsageError(message: "courier ws takes no method: the opening handshake is a GET")
        }
        // The handshake is read as a request: its items must be headers or query parameters, and
        // stdin holds the messages, never a body.
        let words = shared + ["--ignore-stdin", "--", try httpURL(url)] + parsed.positionals.dropFirst()
        line.request = try RequestGrammar.parse(words, registry: registry)
        line.readsStandardInput = !parsed.has("--ignore-stdin")
        if line.request.items.contains(where: \.isData) {
            throw UsageError(
                message: "body items (name=value, name:=json, name@file) have no place in a WebSocket handshake: "
                    + "stdin's lines are the messages; Name:value headers and name==value queries are welcome"
            )
        }
        return line
    }

    /// The request grammar's specification cut down to the shared options, plus the WebSocket ones.
    static var specification: ArgumentSpecification {
        let grammar = RequestGrammar.specification
        let shared = sharedFlags.union(sharedOptions)
        var specification = ArgumentSpecification(
            flags: grammar.flags.intersection(sharedFlags).union(flags),
            options: grammar.options.intersection(sharedOptions).union(options),
            aliases: grammar.aliases.filter { shared.contains($0.value) }.merging(["-h": "--help"]) { _, help in help }
        )
        specification.variadicPositionals = true
        return specification
    }

    /// `ws://` and `wss://` become `http://` and `https://` for the request grammar (which also
    /// reads httpie's shorthands: `:8080/chat` is `http://localhost:8080/chat`); the connector takes
    /// either spelling.
    static func httpURL(_ text: String) throws(UsageError) -> String {
        let lower = text.lowercased()
        for (webSocket, http) in [("ws://", "http://"), ("wss://", "https://")] where lower.hasPrefix(webSocket) {
            return http + text.dropFirst(webSocket.count)
        }
        if let scheme = lower.firstRange(of: "://"), !["http", "https"].contains(lower[..<scheme.lowerBound]) {
            throw UsageError(message: "not a ws://, wss://, http:// or https:// URL: \(text)")
        }
        return text
    }

    /// `65536`, `64k`, `16M`, `1G` (binary units, as `curl --max-filesize` reads them).
    static func size(_ text: String, _ name: String) throws(UsageError) -> Int {
        let units: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        var digits = Substring(text)
        var unit = 1
        if let last = digits.last, let multiplier = units[Character(last.lowercased())] {
            unit = multiplier
            digits = digits.dropLast()
        }
        guard let count = Int(digits), count > 0, count <= Int.max / unit else {
            throw UsageError(message: "\(name) takes a positive size in bytes (64k, 16M), not \(text.debugDescription)")
        }
        return count * unit
    }
}
