internal import Courier
internal import CourierCurl
internal import CourierHTTP
internal import CourierSerialization
internal import CourierSessionCore
internal import CourierSessionEngine
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// `courier [METHOD] URL [items]`: one request through ``CourierClient``, printed as httpie prints
/// it.
enum RequestCommand {
    static func run(_ arguments: [String], registry: CommandRegistry) async -> Int32 {
        let line: RequestCommandLine
        do {
            line = try RequestGrammar.parse(arguments, registry: registry)
        } catch {
            return usageFailure(error)
        }
        if line.showsHelp {
            print(CourierHelp.text(registry))
            return ExitStatus.success
        }
        let status: Int32
        do {
            status = try await send(line)
        } catch let error as UsageError {
            return usageFailure(error)
        } catch {
            StandardStreams.printError("courier: error: \(error)")
            status = ExitStatus.error
        }
        if line.reportsPeakRSS { StandardStreams.printError(PeakRSS.reportLine) }
        return status
    }

    static func usageFailure(_ error: UsageError) -> Int32 {
        StandardStreams.printError("courier: \(error.message)\n\(CourierHelp.synopsis)")
        return ExitStatus.error
    }

    private static func send(_ commandLine: RequestCommandLine) async throws -> Int32 {
        var line = commandLine
        let session = try PersistentSession.open(line)
        session?.applyAuth(to: &line)
        var request = try RequestBuilder(line: line).build()
        try session?.applyHeaders(to: &request, line: line)
        if line.compress > 0 { request = try await RequestFraming.compressed(request, always: line.compress > 1) }
        let toFile = line.output != nil && !line.download
        let descriptor = toFile ? try openOutput(line.output ?? "") : STDOUT_FILENO
        defer { if toFile { close(descriptor) } }
        let selection = OutputSelection(line, stdoutIsTerminal: OutputSelection.stdoutIsTerminal)
        let writer = MessageWriter(
            selection: selection,
            descriptor: descriptor,
            isTerminal: !toFile && OutputSelection.stdoutIsTerminal
        )
        if line.offline {
            let cookies = session.map { Cookie.matching($0.cookies(line), for: request.url) } ?? []
            try writer.writeRequest(request, jarCookies: cookies)
            return ExitStatus.success
        }

        let client = try makeClient(line, original: request)
        let status: Int32
        do {
            let store = client.transport.cookieStore
            if let session, let store { try await session.seed(store, line: line) }
            // The head shows the `Cookie` field libcurl adds from the jar, as httpie's shows the
            // one its session adds; the jar is asked only when the head is printed.
            let showsCookies = writer.selection.shows("H") || writer.selection.showsCurlDescription
            let jarCookies =
                if let store, showsCookies, request.handlesCookies ?? client.transport.requestDefaults.handlesCookies {
                    try await store.cookies(for: request.url)
                } else {
                    [Cookie]()
                }
            try writer.writeRequest(request, jarCookies: jarCookies)
            if line.chunked { request = RequestFraming.chunked(request) }
            status = try await perform(request, line: line, client: client, writer: writer)
            try await session?.save(line: line, givenAuth: commandLine.auth, store: client.transport.cookieStore)
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
        return status
    }

    /// Sends `request` the way the command line asks and prints the exchange.
    private static func perform(
        _ request: HTTPRequest,
        line: RequestCommandLine,
        client: CourierClient,
        writer: MessageWriter
    ) async throws -> Int32 {
        let selection = writer.selection
        if line.download {
            return await DownloadRunner(line: line, request: request, client: client, writer: writer).run()
        }
        if line.streamsEvents {
            return await EventStreamPrinter(descriptor: writer.descriptor, messages: ErrorMessages(line)).run(
                request,
                on: client
            )
        }
        if StreamedOutput.applies(to: line, selection: selection) {
            return try await StreamedOutput(line: line, writer: writer).run(request, on: client)
        }
        let response = await exchange(request, on: client, line: line)
        if line.showsMetrics, let metrics = response.metrics.last {
            for text in MetricsSummary.lines(metrics) { StandardStreams.printError(text) }
        }
        if let error = response.error, !Self.isRetryableStatusRefusal(error) {
            ErrorMessages(line).report(error)
            return ExitStatus.of(error)
        }
        guard let head = response.response else { return ExitStatus.error }
        if line.printsAllHops {
            // httpie's --all: each redirect's response before the last one (their bodies are not kept).
            for hop in response.redirects { try writer.writeHead(hop) }
        }
        try writer.writeHead(head)
        if selection.shows("b"), let body = response.data, !body.isEmpty {
            let endsLine = try writer.writeBody(body, contentType: head.headers["Content-Type"])
            if selection.shows("m") { try writer.separate(endsLine: endsLine) }
        }
        try writer.writeMetrics(response.metrics, retries: response.retryCount, redirects: response.redirects.count)
        guard line.checksStatus else { return ExitStatus.success }
        let status = ExitStatus.of(status: head.status.code, follows: line.follows)
        if status != ExitStatus.success { StandardStreams.printError("courier: warning: HTTP \(head.status)") }
        return status
    }

    /// Sends the request; a large body (over 1 MiB) draws an upload progress line on a terminal, any
    /// body with `--progress`.
    private static func exchange(
        _ request: HTTPRequest,
        on client: CourierClient,
        line: RequestCommandLine
    ) async -> DataResponse<Data> {
        let serializer = DataResponseSerializer(validator: statusValidator(line))
        let length = request.body.length ?? 0
        let showsProgress =
            request.body.kind != .empty
            && (line.forcesProgress || (StandardStreams.errorIsTerminal && length > 1 << 20))
        guard showsProgress else {
            return await client.session.session.response(for: request, serializer: serializer)
        }
        let progress = ProgressBox(ProgressLine(style: .live, label: "upload") { StandardStreams.writeError($0) })
        let response = await withCheckedContinuation { (continuation: CheckedContinuation<DataResponse<Data>, Never>) in
            client.session.session.dataTask(
                with: request,
                serializer: serializer,
                uploadProgress: { progress.update(completed: $0.completed, total: $0.total) },
                completion: { continuation.resume(returning: $0) }
            ).resume()
        }
        if response.error == nil {
            progress.finish(completed: length, total: length)
        } else {
            progress.abandon()
        }
        return response
    }

    /// Every status is printed as httpie prints it; but retriers are asked about refused responses
    /// only (Alamofire's order), so with `--retries` the retry policy's statuses are refused, to be
    /// retried, and printed like any other once the retries run out.
    private static func statusValidator(_ line: RequestCommandLine) -> ResponseValidator {
        guard line.retries > 0 else { return ResponseValidator(acceptableStatusCodes: nil) }
        return ResponseValidator(acceptableStatusCodes: Set(100...599).subtracting(RetryPolicy().retryableStatusCodes))
    }

    /// Whether `error` is only the refusal of a retryable status that ``statusValidator(_:)`` made.
    private static func isRetryableStatusRefusal(_ error: SessionError) -> Bool {
        guard error.kind == .serialization, error.response != nil, let refusal = error.serialization else {
            return false
        }
        return refusal.code == .unacceptableStatusCode
    }

    private static func openOutput(_ path: String) throws(CommandFailure) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// The client for one command line: its transport settings, redirects, retries and deadline.
    static func makeClient(_ line: RequestCommandLine, original: HTTPRequest) throws(CommandFailure) -> CourierClient {
        let trust = try TrustOptions(line)
        do {
            return try CourierClient(baseURL: nil) { configuration in
                trust.apply(to: &configuration.curl)
                if line.resumes {
                    configuration.interceptors = [ResumeHeaders(headers: original.headers, origin: original.url)]
                }
                configuration.curl.tls.caFile = line.caFile
                if line.noProxy {
                    configuration.curl.proxy = .none
                } else if let proxy = line.proxy {
                    configuration.curl.proxy = .explicit(url: proxyURL(proxy), credentials: nil, noProxy: [])
                }
                switch line.httpVersion {
                case .automatic: break
                case .http1_1: configuration.curl.httpVersion = .http1_1
                case .http2: configuration.curl.httpVersion = .h2cUpgrade
                }
                if let connectTimeout = line.connectTimeout { configuration.curl.connectTimeout = connectTimeout }
                if line.waitsForNetwork {
                    configuration.reachability = { host in AnnouncingReachabilityMonitor(host: host) }
                }
                configuration.redirectHandler = line.follows ? Redirector.follow : Redirector.doNotFollow
                configuration.session.maximumRedirects = line.maximumRedirects
                configuration.session.deadline = line.timeout
                if line.retries > 0 {
                    var policy = RetryPolicy()
                    policy.retryLimit = line.retries
                    configuration.retryPolicy = policy
                } else {
                    configuration.retryPolicy = nil
                }
            }
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// httpie writes `--proxy http:http://proxy:3128` (a scheme, then the proxy); the transport
    /// has one proxy for both schemes, so the prefix is dropped.
    private static func proxyURL(_ value: String) -> String {
        for prefix in ["http:", "https:", "all:"]
        where value.hasPrefix(prefix) && value.dropFirst(prefix.count).contains("://") {
            return String(value.dropFirst(prefix.count))
        }
        return value
    }
}
