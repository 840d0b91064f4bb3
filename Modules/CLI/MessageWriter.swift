internal import CourierHTTP
internal import CourierSessionCore
internal import CourierSessionEngine
internal import CourierTransport
internal import FoundationEssentials

/// Writes the selected parts of the exchange, in httpie's layout: each message's head ends with a
/// blank line, and parts are separated by one.
struct MessageWriter {
    let selection: OutputSelection
    let descriptor: Int32
    let isTerminal: Bool

    private func emit(_ text: String) throws(CommandFailure) {
        try StandardStreams.write(Data(text.utf8), to: descriptor)
    }

    private func paint(_ text: String, _ code: String) -> String {
        selection.colours ? "\u{1B}[\(code)m" + text + "\u{1B}[0m" : text
    }

    private func fields(_ headers: HTTPHeaders) -> String {
        headers.fields.map { paint($0.name, "36") + ": " + $0.value + "\n" }.joined()
    }

    /// The request as it goes out (`H`, `B`), and with `--verbose` its cURL description;
    /// `jarCookies` are those the transport's cookie store adds, in sending order.
    func writeRequest(_ request: HTTPRequest, jarCookies: [Cookie] = []) throws(CommandFailure) {
        if selection.shows("H") {
            // The path as libcurl sends it: dot segments removed (RFC 3986 §5.2.4) unless kept.
            let sent = request.sendsPathAsIs ? request.url : request.url.standardized
            var head = paint(request.method.rawValue, "32") + " " + Self.target(of: sent) + " HTTP/1.1\n"
            // libcurl's order: `Host`, the `Cookie` field from its store, then the request's fields.
            var headers = HTTPHeaders()
            if !request.headers.contains(name: "Host"), let host = Self.authority(of: request.url) {
                try? headers.add(name: "Host", value: host)
            }
            if let stored = Cookie.headerValue(for: jarCookies) { try? headers.add(name: "Cookie", value: stored) }
            for field in request.headers { headers.add(field) }
            head += fields(headers)
            try emit(head + "\n")
        }
        if selection.shows("B"), request.body.kind != .empty {
            if let bytes = request.body.bytes {
                let endsLine = try writeBody(bytes, contentType: request.headers["Content-Type"])
                // The response follows: keep the two messages apart by a blank line, as httpie does.
                if !selection.parts.isDisjoint(with: "hbm") || selection.showsCurlDescription {
                    try emit(endsLine ? "\n" : "\n\n")
                }
            } else {
                let size = request.body.length.map { "\($0) bytes" } ?? "streamed"
                try emit("(\(request.headers["Content-Type"] ?? "body"), \(size), not shown)\n\n")
            }
        }
        if selection.showsCurlDescription {
            try emit(paint(request.curlDescription(style: .singleLine, cookies: jarCookies), "2") + "\n\n")
        }
    }

    /// The response head (`h`).
    func writeHead(_ response: HTTPResponse) throws(CommandFailure) {
        guard selection.shows("h") else { return }
        let status = paint("\(response.version) \(response.status)", "1")
        try emit(status + "\n" + fields(response.headers) + "\n")
    }

    /// A body: JSON formatted when asked, binary data kept off a terminal. Returns whether what it
    /// wrote ends a line.
    @discardableResult
    func writeBody(_ body: Data, contentType: String?) throws(CommandFailure) -> Bool {
        if isTerminal, body.contains(0) {
            try emit("+-----------------------------------------+\n")
            try emit("| NOTE: binary data not shown in terminal |\n")
            try emit("+-----------------------------------------+\n")
            return true
        }
        let isJSON = contentType.map { $0.lowercased().contains("json") } ?? false
        if selection.formats, isJSON, let text = JSONFormatter.format(body, colours: selection.colours) {
            try emit(text + "\n")
            return true
        }
        try StandardStreams.write(body, to: descriptor)
        if isTerminal, body.last != UInt8(ascii: "\n") {
            try emit("\n")
            return true
        }
        return body.last == UInt8(ascii: "\n")
    }

    /// A blank line after a body, before the metrics.
    func separate(endsLine: Bool) throws(CommandFailure) {
        try emit(endsLine ? "\n" : "\n\n")
    }

    /// The metrics (`m`): libcurl's timings of the last attempt, then retries and redirects.
    /// A download's response does not count them, so they are optional.
    func writeMetrics(_ metrics: [TransferMetrics], retries: Int?, redirects: Int?) throws(CommandFailure) {
        guard selection.shows("m"), let last = metrics.last else { return }
        var lines = MetricsSummary.lines(last)
        if let retries { lines.append("  retries       \(retries)") }
        if let redirects { lines.append("  redirects     \(redirects)") }
        try emit(lines.joined(separator: "\n") + "\n")
    }

    /// The request target: path and query, `/` for an empty path.
    static func target(of url: URL) -> String {
        let text = url.absoluteString
        guard let schemeEnd = text.firstRange(of: "://") else { return "/" }
        let rest = text[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
        var target = String(rest[slash...])
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        return target.hasPrefix("?") ? "/" + target : target
    }

    static func authority(of url: URL) -> String? {
        guard let host = url.host else { return nil }
        return url.port.map { "\(host):\($0)" } ?? host
    }
}
