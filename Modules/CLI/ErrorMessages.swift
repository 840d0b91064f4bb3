internal import CourierHTTP
internal import CourierSessionCore
internal import CourierTransport
internal import FoundationEssentials

/// The one line `courier` prints for a failed request: what happened in plain words, where, and
/// what to try (the option to change), without the library's type names or libcurl's codes.
/// `--verbose` (or `--debug`) adds a second line with those, for a bug report.
struct ErrorMessages {
    /// What the command line set, for the advice: the `--timeout` and `--connect-timeout` values.
    var timeout: Duration?
    var connectTimeout: Duration?
    /// `--verbose` or `--debug`: add the library's description of the error.
    var verbose = false

    init(timeout: Duration? = nil, connectTimeout: Duration? = nil, verbose: Bool = false) {
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.verbose = verbose
    }

    init(_ line: RequestCommandLine) {
        self.init(timeout: line.timeout, connectTimeout: line.connectTimeout, verbose: line.verbose || line.debug)
    }

    /// Prints the error's lines on stderr.
    func report(_ error: SessionError) {
        for text in lines(error, verbose: verbose) { StandardStreams.printError(text) }
    }

    /// Every transport category the table test checks has a message of its own.
    static let categories: [TransportError.Category] = [
        .cancelled, .timedOut, .nameResolutionFailed, .cannotConnect, .connectionLost, .serverTrustFailed,
        .tlsFailed, .protocolViolation, .limitExceeded, .contentDecodingFailed, .requestBodyFailed,
        .requestBodyAlreadyConsumed, .fileFailed, .resumeFailed, .proxyFailed, .invalidRequest, .configuration,
        .alreadyConsumed, .shutDown, .other,
    ]

    /// The lines to print: the plain one, and with `verbose` the library's own description.
    func lines(_ error: SessionError, verbose: Bool) -> [String] {
        var lines = ["courier: " + plain(error)]
        if verbose {
            lines.append("courier: details: \(error.transportError.map { "\($0)" } ?? "\(error)")")
        }
        return lines
    }

    /// The lines for a transport failure of the older commands (`download`, `upload`).
    func lines(_ error: TransportError, verbose: Bool) -> [String] {
        var lines = ["courier: " + transport(error.category, host: Self.place(error.url), message: error.message)]
        if verbose { lines.append("courier: details: \(error)") }
        return lines
    }

    /// The plain sentence for a session error.
    func plain(_ error: SessionError) -> String {
        let host = Self.place(error.failingURL ?? error.transportError?.url)
        switch error.kind {
        case .transport(let category):
            return transport(category, host: host, message: error.transportError?.message ?? error.message)
        case .deadlineExceeded:
            let limit = timeout.map { " after \(Self.seconds($0))" } ?? ""
            return "timed out\(limit) waiting for the response from \(host) (--timeout)"
        case .redirect(.tooManyRedirects(let limit, let visited)):
            let loop = Set(visited).count < visited.count ? ", in a loop" : ""
            return "stopped after \(limit) redirects\(loop) from \(host) (--max-redirects=N allows more)"
        case .redirect(.disallowedScheme(let scheme)):
            return scheme == "http"
                ? "refused to follow a redirect from https:// down to http:// at \(host)"
                : "refused to follow a redirect to a \(scheme.isEmpty ? "URL without a scheme" : scheme + ":// URL")"
        case .redirect(.bodyNotReplayable):
            return "cannot follow the 307/308 redirect from \(host): the body was streamed and cannot be sent "
                + "again (send it from a file)"
        case .serialization:
            let status = error.response.map { " (HTTP \($0.status))" } ?? ""
            return "the response from \(host) was refused\(status)"
        case .adaptationFailed:
            return "the request to \(host) could not be prepared: \(reason(error.underlying))"
        case .retryFailed:
            return "gave up retrying \(host): \(reason(error.underlying)) (--retries)"
        case .cancelled:
            return "the request to \(host) was cancelled"
        case .sessionInvalidated:
            return "the request to \(host) was not sent: the client was shutting down"
        case .fileMoveFailed:
            return "the download from \(host) finished but could not be saved: \(reason(error.underlying)) "
                + "(check the folder of --output)"
        case .resetUnavailable:
            return "could not start a new connection pool for \(host)"
        case .eventStream(.notAnEventStream):
            let status = error.response.map { "HTTP \($0.status)" } ?? "a response"
            return "\(host) answered \(status) without text/event-stream, so --stream has nothing to read"
        case .eventStream(.lineTooLong(let limit)):
            return "\(host) sent an event-stream line over \(limit) bytes; stopped reading"
        case .eventStream(.eventTooLarge(let limit)):
            return "\(host) sent an event over \(limit) bytes; stopped reading"
        case .notCached:
            return "no stored response for \(host), and the cache policy forbids asking the network"
        case .webSocket:
            return "the WebSocket at \(host) failed" + (error.webSocketError.map { ": \($0)" } ?? "")
        case .webSocketUnavailable:
            return "this client cannot open a WebSocket to \(host)"
        }
    }

    /// The plain sentence for a transport failure.
    func transport(_ category: TransportError.Category, host: String, message: String) -> String {
        let lower = message.lowercased()
        switch category {
        case .timedOut:
            if lower.contains("connect") || lower.contains("resolv") {
                let limit = connectTimeout.map { " after \(Self.seconds($0))" } ?? ""
                return "timed out\(limit) connecting to \(host) (--connect-timeout)"
            }
            if lower.contains("too slow") || lower.contains("idle") {
                return "\(host) stopped sending for too long (the transport's idle limit); try again"
            }
            let limit = timeout.map { " after \(Self.seconds($0))" } ?? ""
            return "timed out\(limit) waiting for the response from \(host) (--timeout)"
        case .nameResolutionFailed:
            return "could not find the host \(host) (check the name, or your DNS)"
        case .cannotConnect:
            return "could not connect to \(host) (\(Self.connectReason(lower, host: host)))"
        case .connectionLost:
            return "the connection to \(host) broke before the response was complete; try again (--retries=N)"
        case .serverTrustFailed:
            return "the server's certificate is not trusted: \(Self.certificateReason(message)) "
                + "(--verify=CA_FILE trusts a CA, --verify=no skips the check)"
        case .tlsFailed:
            return "the TLS handshake with \(host) failed: \(Self.firstSentence(message)) "
                + "(check --cert, --cert-key and --verify)"
        case .protocolViolation:
            return "\(host) sent a response that breaks HTTP; try --http1.1"
        case .limitExceeded:
            return "the response from \(host) is larger than allowed (headers, or the decoded body)"
        case .contentDecodingFailed:
            return "the compressed response from \(host) could not be decoded; try Accept-Encoding:identity"
        case .requestBodyFailed:
            return "the request body could not be read while sending to \(host) (did the file change?)"
        case .requestBodyAlreadyConsumed:
            return "the request body was streamed once and cannot be sent to \(host) again (send it from a file)"
        case .fileFailed:
            return "the download from \(host) could not be written to disk (check space and --output)"
        case .resumeFailed:
            return "the download from \(host) cannot be resumed safely; run it again without --continue"
        case .proxyFailed:
            return "the proxy refused or failed the request to \(host) (check --proxy, or --no-proxy)"
        case .invalidRequest:
            return "the request to \(host) cannot be sent as given (check the URL and the headers)"
        case .configuration:
            return "the transport cannot do what was asked for \(host) (an option this libcurl lacks)"
        case .cancelled:
            return "the request to \(host) was cancelled"
        case .alreadyConsumed, .shutDown:
            return "the request to \(host) was not completed: the client was shutting down"
        default:
            return "the request to \(host) failed: \(Self.firstSentence(message))"
        }
    }

    /// `127.0.0.1:9` or `example.com`: the origin, without the scheme or path.
    static func place(_ url: URL?) -> String {
        guard let url, let host = url.host else { return "the server" }
        guard let port = url.port else { return host }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return "\(Double(milliseconds) / 1000) s"
    }

    /// libcurl's message does not always carry the system's reason; on loopback, where no route can
    /// be missing, a failed connect is a refused one.
    private static func connectReason(_ lower: String, host: String) -> String {
        if lower.contains("no route") || lower.contains("unreachable") {
            return "no route to the host: check the network"
        }
        let loopback = ["127.", "[::1]", "localhost"].contains { host.hasPrefix($0) }
        if lower.contains("refused") || loopback { return "connection refused: is the server running on that port?" }
        return "no connection could be made: is the server running, and the port right?"
    }

    private static func certificateReason(_ message: String) -> String {
        for marker in ["SSL certificate problem: ", "certificate problem: "] {
            if let range = message.firstRange(of: marker) {
                return firstSentence(String(message[range.upperBound...]))
            }
        }
        return firstSentence(message)
    }

    /// The message up to its first sentence end, with libcurl's trailing details dropped.
    static func firstSentence(_ message: String) -> String {
        var text = Substring(message)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if let bracket = text.firstRange(of: " [") { text = text[..<bracket.lowerBound] }
        if let stop = text.firstRange(of: ". ") { text = text[..<stop.lowerBound] }
        if text.hasSuffix(".") { text.removeLast() }
        return text.isEmpty ? "no reason given" : String(text)
    }

    private func reason(_ error: (any Error)?) -> String {
        switch error {
        case nil: return "no reason given"
        case let transport as TransportError:
            return self.transport(transport.category, host: Self.place(transport.url), message: transport.message)
        case let session as SessionError: return plain(session)
        case let usage as UsageError: return usage.message
        case let failure as CommandFailure: return failure.message
        case let error?: return Self.firstSentence("\(error)")
        }
    }
}
