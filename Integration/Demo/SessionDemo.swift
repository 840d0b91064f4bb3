internal import CourierCurl
internal import CourierHTTP
internal import CourierLocking
internal import CourierSerialization
internal import CourierSessionCore
internal import CourierSessionEngine
internal import CourierTransport
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// The session layer over the libcurl transport: a redirect followed, a gateway that redirects to
/// itself after setting a cookie, a retried request, and a download stopped part-way and resumed
/// from its encoded resume data.
///
/// Needs the loopback servers `ci/demo` starts (`TEST_HTTP_URL`, `FAULT_HTTP_URL`, `TEST_WWW_DIR`);
/// without them it says how to run it and counts no failure.
struct SessionDemo {
    func run() async -> Int {
        DemoOutput.section("Session (CourierSessionCore over CurlTransport)")
        guard let base = DemoServers.url("TEST_HTTP_URL"), let faults = DemoServers.url("FAULT_HTTP_URL"),
            let www = TransportDemo.environment("TEST_WWW_DIR")
        else { return DemoServers.skip() }
        let transport = DemoServers.directTransport()
        var policy = RetryPolicy()
        policy.exponentialBackoffScale = 0.05  // the demo's retries need not wait half a second
        let session = SessionManager(transport: transport, interceptor: policy)
        var failures = 0
        failures += await redirect(session, base.appending(path: "redirect"))
        failures += await selfRedirect(session, faults.appending(path: "consent-gate"))
        failures += await retry(session, faults)
        failures += await resumedDownload(session, base.appending(path: "slow/big-100m"), original: www + "/big-100m")
        await session.shutdown()
        await transport.shutdown()
        return failures
    }

    private func redirect(_ session: SessionManager, _ url: URL) async -> Int {
        DemoOutput.line("GET (302 -> /small)", url.absoluteString)
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        let hops = response.redirects.map { String($0.status.code) }.joined(separator: ", ")
        DemoOutput.line(
            "followed",
            "redirects [\(hops)], final \(response.response.map { "\($0.status)" } ?? "-") from "
                + "\(response.request?.url.path ?? "-"), \(response.data?.count ?? 0) bytes, "
                + "\(response.metrics.count) transfers"
        )
        return check(
            response.error == nil && response.redirects.count == 1,
            "redirect followed: \(response.error.map { "\($0)" } ?? "")"
        )
    }

    /// A gateway that sets a cookie and redirects to itself: counted, not refused as a loop.
    private func selfRedirect(_ session: SessionManager, _ url: URL) async -> Int {
        DemoOutput.line("GET (302 to itself)", "\(url.absoluteString), which sets consent=yes")
        let response = await session.response(for: HTTPRequest(url: url), serializer: StringResponseSerializer())
        DemoOutput.line(
            "followed",
            "redirects \(response.redirects.map(\.status.code)) back to \(url.path), the cookie sent, then "
                + "\(response.response.map { "\($0.status)" } ?? "-"): \((response.value ?? "-").trimmingTrailingNewline)"
        )
        return check(
            response.error == nil && response.redirects.count == 1 && response.value == "welcome\n",
            "self-redirect with a cookie: \(response.error.map { "\($0)" } ?? "")"
        )
    }

    private func retry(_ session: SessionManager, _ faults: URL) async -> Int {
        var components = URLComponents(url: faults.appending(path: "flaky"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "id", value: UUID().uuidString), URLQueryItem(name: "failures", value: "2"),
        ]
        guard let url = components?.url else { return check(false, "flaky URL") }
        DemoOutput.line("GET (503, 503, 200)", url.absoluteString)
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        let text = response.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        DemoOutput.line(
            "retried",
            "\(response.retryCount) retries by RetryPolicy, then \(text.trimmingTrailingNewline)"
        )
        return check(
            response.error == nil && response.retryCount == 2,
            "retry: \(response.error.map { "\($0)" } ?? "")"
        )
    }

    private func resumedDownload(_ session: SessionManager, _ url: URL, original: String) async -> Int {
        DemoOutput.line("download (throttled)", url.absoluteString)
        let stopped = await stopPartWay(session, url)
        guard let resumeData = stopped.resumeData, let encoded = try? resumeData.encoded(),
            let decoded = try? ResumeData(encoded: encoded)
        else { return check(false, "resume data after cancelling: \(String(describing: stopped.error))") }
        DemoOutput.line(
            "cancelled",
            "\(DemoUnits.mebibytes(decoded.offset)) on disk, resume data \(encoded.count) bytes (ETag \(decoded.entityTag ?? "-"))"
        )
        let target = "/tmp/courier-demo-\(getpid()).bin"
        defer { unlink(target) }
        let resumed = await session.download(resumingWith: decoded) { _, _ in
            DownloadDestination(path: target, replacesExistingFile: true)
        }
        let same = Self.sameContents(target, original)
        DemoOutput.line(
            "resumed",
            "\(resumed.response.map { "\($0.status)" } ?? "-") from byte \(decoded.offset), file identical to the server's: \(same)"
        )
        return check(resumed.error == nil && same, "resumed download: \(resumed.error.map { "\($0)" } ?? "")")
    }

    /// Starts the download and cancels it once half a mebibyte is on disk.
    private func stopPartWay(_ session: SessionManager, _ url: URL) async -> DownloadResponse {
        await withCheckedContinuation { (continuation: CheckedContinuation<DownloadResponse, Never>) in
            let box = TaskBox()
            let task = session.downloadTask(
                with: HTTPRequest(url: url),
                progress: { if $0.completed >= 512 << 10 { box.task?.cancel() } },
                destination: nil,
                completion: { continuation.resume(returning: $0) }
            )
            box.task = task
            task.resume()
        }
    }

    /// Whether two files hold the same bytes.
    static func sameContents(_ first: String, _ second: String) -> Bool {
        let left = open(first, O_RDONLY)
        let right = open(second, O_RDONLY)
        defer {
            if left >= 0 { close(left) }
            if right >= 0 { close(right) }
        }
        guard left >= 0, right >= 0 else { return false }
        var a = [UInt8](repeating: 0, count: 1 << 20)
        var b = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let countA = read(left, &a, a.count)
            let countB = read(right, &b, b.count)
            guard countA == countB, countA >= 0 else { return false }
            if countA == 0 { return true }
            guard a[..<countA] == b[..<countB] else { return false }
        }
    }
}

/// Lets the progress closure reach the task it belongs to (set right after the task is made).
private final class TaskBox: Sendable {
    private let stored = Lock<SessionTask?>(nil)

    var task: SessionTask? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

extension String {
    fileprivate var trimmingTrailingNewline: String {
        hasSuffix("\n") ? String(dropLast()) : self
    }
}
