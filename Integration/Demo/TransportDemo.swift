internal import CourierCurl
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// The libcurl transport against the loopback servers `ci/demo` starts: a 100 MiB HTTPS download
/// over HTTP/2 streamed and hashed chunk by chunk, its metrics, and connection reuse.
///
/// The servers are found through the variables `ci/servers` writes (`TEST_HTTPS_URL`,
/// `TEST_CA_FILE`, `TEST_WWW_DIR`); without them (`CourierDemo` run by hand) this part says how to
/// run it and counts no failure.
struct TransportDemo {
    static let bigFileSize: Int64 = 100 << 20

    func run() async -> Int {
        DemoOutput.section("Transport (CourierCurl: libcurl, HTTP/2 over TLS on loopback)")
        guard let base = Self.environment("TEST_HTTPS_URL").flatMap(URL.init(string:)),
            let caFile = Self.environment("TEST_CA_FILE")
        else {
            print("  skipped: this part needs the loopback test servers; `ci/demo` starts them and runs it")
            return 0
        }
        var configuration = CurlTransport.Configuration()
        configuration.tls.caFile = caFile
        configuration.proxy = .none
        var failures = 0
        let transport = CurlTransport(configuration: configuration)
        failures += await streamedDownload(transport, url: base.appending(path: "big-100m"))
        await transport.shutdown()

        let reuseTransport = CurlTransport(configuration: configuration)
        failures += await connectionReuse(reuseTransport, url: base.appending(path: "small"))
        failures += await consumersOnTheLoop(reuseTransport, url: base.appending(path: "small"))
        await reuseTransport.shutdown()
        return failures
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Streams the body through the events, folding each chunk into a hash as it arrives.
    private func streamedDownload(_ transport: CurlTransport, url: URL) async -> Int {
        var failures = 0
        DemoOutput.line("GET", url.absoluteString)
        var progress = DemoProgress(total: Self.bigFileSize)
        var hash = StreamHash()
        var chunks = 0
        var bytes: Int64 = 0
        var status: HTTPResponse?
        var metrics: TransferMetrics?
        for await event in transport.startTransfer(HTTPRequest(url: url)).events {
            switch event {
            case .response(let head):
                status = head
            case .body(let chunk):
                chunks += 1
                bytes += Int64(chunk.count)
                chunk.withUnsafeBytes { hash.update($0) }
                progress.update(completed: bytes)
            case .completed(let value):
                metrics = value
            case .failed(let error):
                return check(false, "download: \(error)")
            case .redirect, .uploadProgress, .downloadProgress:
                continue
            }
        }
        guard let status, let metrics else { return check(false, "the download ended without a result") }
        DemoOutput.line("status", "\(status.version) \(status.status)")
        DemoOutput.line(
            "streamed",
            "\(bytes) bytes in \(chunks) chunks (average \(bytes / Int64(max(chunks, 1))) bytes)"
        )
        DemoOutput.line("fnv1a-64 of the stream", hash.hex)
        failures += check(status.status.code == 200, "status 200")
        failures += check(metrics.protocolVersion == .http2, "negotiated HTTP/2 over TLS")
        failures += check(bytes == Self.bigFileSize, "all \(Self.bigFileSize) bytes arrived")
        failures += check(hash.hex == expectedHash(), "the hash matches the served file")
        printMetrics(metrics)
        return failures
    }

    /// What libcurl measured for the download: phase times as offsets from the start of the
    /// transfer, byte counts, and the connection that carried it.
    private func printMetrics(_ metrics: TransferMetrics) {
        var connection = metrics.reusedConnection ? "reused" : "new"
        if let localPort = metrics.localPort { connection += ", local port \(localPort)" }
        if let address = metrics.remoteAddress {
            connection += " -> \(address)" + (metrics.remotePort.map { ":\($0)" } ?? "")
        }
        let rows = [
            ("protocol", metrics.protocolVersion.map { "\($0)" } ?? "-"),
            ("dns", DemoUnits.milliseconds(metrics.nameLookup)),
            ("connect", DemoUnits.milliseconds(metrics.connect)),
            ("tls", DemoUnits.milliseconds(metrics.tlsHandshake)),
            ("first byte", DemoUnits.milliseconds(metrics.firstByte)),
            ("total", DemoUnits.milliseconds(metrics.total)),
            ("sent", "\(metrics.requestHeaderBytes) header bytes, \(metrics.requestBodyBytes) body bytes"),
            (
                "received",
                "\(metrics.responseHeaderBytes) header bytes, \(metrics.responseBodyBytes) body bytes"
                    + " (\(metrics.decodedBodyBytes) decoded)"
            ),
            ("rate", DemoUnits.rate(metrics.decodedBodyBytes, over: metrics.total) + " down"),
            ("connection", connection),
        ]
        print("  metrics:")
        for (label, value) in rows {
            print("    " + label + String(repeating: " ", count: 14 - label.count) + value)
        }
    }

    /// The hash of the file nginx serves, read from disk when `TEST_WWW_DIR` says where; the file
    /// is sparse (all zero bytes) so reading it costs no disk.
    private func expectedHash() -> String {
        guard let directory = Self.environment("TEST_WWW_DIR") else { return "unknown" }
        let descriptor = open(directory + "/big-100m", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "unknown" }
        defer { close(descriptor) }
        var hash = StreamHash()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return hash.hex
    }

    /// The same small GETs with their consumers on the cooperative pool, then on the transport's
    /// loop thread (`CurlTransport.executor`): the process's context switches and CPU per request
    /// for each, as measured here (one round of a debug build: an illustration; the benchmarks have
    /// the figures).
    private func consumersOnTheLoop(_ transport: CurlTransport, url: URL) async -> Int {
        var failures = 0
        print("")
        let requests = 200
        DemoOutput.line("GET ×\(requests), 8 at a time", url.absoluteString)
        let fetchAll: @Sendable () async -> Int = {
            await withTaskGroup(of: Bool.self, returning: Int.self) { group in
                var started = 0
                var succeeded = 0
                while started < 8 {
                    started += 1
                    group.addTask { await Self.fetch(url, on: transport) }
                }
                while let ok = await group.next() {
                    if ok { succeeded += 1 }
                    if started < requests {
                        started += 1
                        group.addTask { await Self.fetch(url, on: transport) }
                    }
                }
                return succeeded
            }
        }
        for onLoop in [false, true] {
            let before = Self.processUsage()
            let succeeded =
                onLoop ? await withTaskExecutorPreference(transport.executor, operation: fetchAll) : await fetchAll()
            let after = Self.processUsage()
            let switchTenths = (after.contextSwitches - before.contextSwitches) * 10 / requests
            let cpu = (after.cpuMicroseconds - before.cpuMicroseconds) / requests
            let place = onLoop ? "on the loop thread" : "on the pool"
            DemoOutput.line(
                place,
                "\(succeeded)/\(requests) ok, \(switchTenths / 10).\(switchTenths % 10) context switches and "
                    + "\(cpu) µs of CPU per request"
            )
            failures += check(succeeded == requests, "every request with its consumer \(place) succeeded")
        }
        return failures
    }

    /// One GET read to its end; whether it answered 200.
    private static func fetch(_ url: URL, on transport: CurlTransport) async -> Bool {
        var status = 0
        for await event in transport.startTransfer(HTTPRequest(url: url)).events {
            if case .response(let head) = event { status = head.status.code }
            if case .failed = event { return false }
        }
        return status == 200
    }

    /// The whole process's CPU (user and system) and context switches (voluntary and not) so far,
    /// every thread included: a thread hop shows as a switch.
    private static func processUsage() -> (cpuMicroseconds: Int, contextSwitches: Int) {
        var usage = rusage()
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return (0, 0) }
        let user = Int(usage.ru_utime.tv_sec) * 1_000_000 + Int(usage.ru_utime.tv_usec)
        let system = Int(usage.ru_stime.tv_sec) * 1_000_000 + Int(usage.ru_stime.tv_usec)
        return (user + system, Int(usage.ru_nvcsw) + Int(usage.ru_nivcsw))
    }

    /// Two small GETs on one transport: the second rides the first one's connection.
    private func connectionReuse(_ transport: CurlTransport, url: URL) async -> Int {
        var failures = 0
        print("")
        DemoOutput.line("GET twice", url.absoluteString)
        do {
            let first = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 16)
            let second = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 16)
            for (label, result) in [("first", first), ("second", second)] {
                let metrics = result.metrics
                DemoOutput.line(
                    label,
                    "\(result.response.status), \(result.body.count) bytes, "
                        + "\(metrics.reusedConnection ? "reused" : "new") connection, "
                        + "local port \(metrics.localPort.map(String.init) ?? "-"), "
                        + "connect \(DemoUnits.milliseconds(metrics.connect)), "
                        + "TLS \(DemoUnits.milliseconds(metrics.tlsHandshake)), "
                        + "total \(DemoUnits.milliseconds(metrics.total))"
                )
            }
            failures += check(!first.metrics.reusedConnection, "the first request opens a connection")
            failures += check(second.metrics.reusedConnection, "the second request reuses it")
            failures += check(
                first.metrics.localPort != nil && first.metrics.localPort == second.metrics.localPort,
                "both requests used the same local port"
            )
        } catch {
            failures += check(false, "small GETs: \(error)")
        }
        return failures
    }
}
