internal import CourierCurl
internal import CourierHTTP
internal import FoundationEssentials

/// The options every transfer command shares: trust, headers, protocol, proxy, and what to report.
struct TransportSettings {
    static let flags: Set<String> = ["--http1.1", "--progress", "--metrics", "--report-rss", "--no-proxy"]
    static let options: Set<String> = ["--cacert", "--header", "--proxy"]
    static let aliases = ["-H": "--header"]

    var caFile: String?
    var headers = HTTPHeaders()
    var http1Only = false
    var proxy: CurlTransport.Proxy = .environment
    var forcesProgress = false
    var showsMetrics = false
    var reportsPeakRSS = false

    /// Reads the shared options; a malformed `--header` is a usage error, not a request failure.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        caFile = arguments.value("--cacert")
        for line in arguments.allValues("--header") {
            guard let colon = line.firstIndex(of: ":") else {
                throw UsageError(message: "--header wants 'Name: value', got \(line.debugDescription)")
            }
            let name = String(line[..<colon])
            let value = String(line[line.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" }))
            do {
                try headers.add(name: name, value: value)
            } catch {
                throw UsageError(message: "bad --header \(line.debugDescription): \(error)")
            }
        }
        http1Only = arguments.has("--http1.1")
        if arguments.has("--no-proxy") {
            proxy = .none
        } else if let url = arguments.value("--proxy") {
            proxy = .explicit(url: url, credentials: nil, noProxy: [])
        }
        forcesProgress = arguments.has("--progress")
        showsMetrics = arguments.has("--metrics")
        reportsPeakRSS = arguments.has("--report-rss")
    }

    /// The specification of a command: its own flags and options plus the shared ones.
    static func specification(
        flags: Set<String> = [],
        options: Set<String> = [],
        aliases: [String: String] = [:],
        positionals: [String]
    ) -> ArgumentSpecification {
        ArgumentSpecification(
            flags: flags.union(Self.flags),
            options: options.union(Self.options),
            aliases: aliases.merging(Self.aliases) { own, _ in own },
            positionals: positionals
        )
    }

    /// One transport per command: its connection pool lives as long as the command.
    func makeTransport() -> CurlTransport {
        var configuration = CurlTransport.Configuration()
        configuration.tls.caFile = caFile
        configuration.proxy = proxy
        if http1Only { configuration.httpVersion = .http1_1 }
        return CurlTransport(configuration: configuration)
    }

    /// A request for `text`, with the `--header` fields.
    func makeRequest(_ text: String, method: HTTPMethod = .get, body: HTTPBody = .empty) throws(UsageError)
        -> HTTPRequest
    {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw UsageError(message: "not an http:// or https:// URL: \(text)")
        }
        return HTTPRequest(method: method, url: url, headers: headers, body: body)
    }
}
