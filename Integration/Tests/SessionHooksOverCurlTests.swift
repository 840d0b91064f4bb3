import CourierCurl
import CourierHTTP
import CourierLocking
import CourierSecurity
import CourierSecurityOpenSSL
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation
import Testing

/// AFNetworking's manager-level hooks, the response disposition, streamed bodies and the security
/// guard, each observed through the real libcurl transport against the loopback servers.
@Suite struct SessionHooksOverCurlTests {
    static var faultServer: URL? { CurlTestServers.url("FAULT_HTTP_URL") }
    static var hasServers: Bool { CurlTestServers.hasHTTP && CurlTestServers.hasHTTPBin && faultServer != nil }

    /// Keeps every event, in order.
    final class Recorder: EventMonitor {
        let events = Lock<[SessionEvent]>([])
        func session(_ session: any HTTPSession, didReceive event: SessionEvent) {
            events.withLock { $0.append(event) }
        }
        var all: [SessionEvent] { events.withLock { $0 } }
        func kinds(of task: SessionTask) -> [SessionEvent.Kind] {
            all.filter { $0.taskIdentifier == task.taskIdentifier }.map(\.kind)
        }
    }

    @Test(.enabled(if: hasServers, "TEST_HTTP_URL, TEST_HTTPBIN_URL or FAULT_HTTP_URL not set"))
    func everyManagerHookFiresInOrderOverLibcurl() async throws {
        let base = try #require(CurlTestServers.http)
        let fault = try #require(Self.faultServer)
        let transport = CurlTestServers.transport()
        let recorder = Recorder()
        var policy = RetryPolicy()
        policy.exponentialBackoffScale = 0.02
        let session = SessionManager(transport: transport, interceptor: policy, eventMonitors: [recorder])

        // A redirect, then a body: started twice, redirected, response, data, metrics twice, completed.
        let redirected = try await session.data(for: HTTPRequest(url: base.adding("/redirect")))
        #expect(redirected.redirects.count == 1)

        // An upload: did-send-body with the declared total.
        let uploadResponse = await session.response(
            for: HTTPRequest(method: .post, url: base.adding("/upload"), body: HTTPBody(Data(count: 200_000))),
            serializer: DataResponseSerializer()
        )
        #expect(uploadResponse.error == nil)

        // A retry after a 503.
        let retried = try await session.data(
            for: HTTPRequest(url: fault.adding("/flaky?id=\(UUID().uuidString)&failures=1"))
        )
        #expect(retried.retryCount == 1)

        // Suspend and resume a running download of the throttled file.
        let slow = base.adding("/slow/big-100m")
        let suspended = session.downloadTask(with: HTTPRequest(url: slow), destination: nil) { _ in }
        let progress = suspended.progressUpdates(.download)
        suspended.resume()
        for await value in progress where value.completed > 0 { break }
        suspended.suspend()
        suspended.resume()
        suspended.cancel()
        await session.invalidate(cancelingTasks: false)
        await transport.shutdown()

        let kinds = recorder.all.map(\.kind)
        for expected: SessionEvent.Kind in [
            .taskResumed, .taskSuspended, .requestStarted, .responseReceived, .redirectFollowed, .retryScheduled,
            .bodySent, .dataReceived, .metricsCollected, .taskCompleted, .sessionInvalidated,
        ] {
            #expect(kinds.contains(expected), "no \(expected) event")
        }
        #expect(kinds.last == .sessionInvalidated)
        // Per task: resumed first, completed last, each request started before its response.
        for identifier in Set(recorder.all.compactMap(\.taskIdentifier)) {
            let own = recorder.all.filter { $0.taskIdentifier == identifier }.map(\.kind)
            #expect(own.last == .taskCompleted, "task \(identifier): \(own)")
            if let started = own.firstIndex(of: .requestStarted), let received = own.firstIndex(of: .responseReceived) {
                #expect(started < received)
            }
        }
        let sent = recorder.all.filter { $0.kind == .bodySent }.compactMap(\.progress)
        #expect(sent.last?.completed == 200_000)
        #expect(sent.allSatisfy { $0.total == 200_000 })
        #expect(recorder.all.filter { $0.kind == .taskSuspended }.count == 1)
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func theResponseDispositionCancelsA100MiBBodyAtItsHead() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        var configuration = SessionConfiguration()
        configuration.responseDisposition = { _, response in
            (response.expectedContentLength ?? 0) > 10 << 20 ? .cancel : .allow
        }
        let recorder = Recorder()
        let session = SessionManager(transport: transport, configuration: configuration, eventMonitors: [recorder])
        // Past the session's 64 MiB in-memory limit, which would refuse its Content-Length at the
        // head, before the disposition: the request lifts it to reach the disposition.
        var request = HTTPRequest(url: base.adding("/big-100m"))
        request.maximumResponseBodySize = .max
        let big = await session.response(for: request, serializer: DataResponseSerializer())
        #expect(big.error?.urlErrorCode == -999)
        #expect(big.response?.status.code == 200)
        #expect((big.data?.count ?? 0) == 0)
        #expect((big.metrics.first?.responseBodyBytes ?? 0) < 50 << 20)
        let small = try await session.data(for: HTTPRequest(url: base.adding("/small")))
        #expect(small.data?.count == 100)
        await session.shutdown()
        await transport.shutdown()
        #expect(recorder.all.filter { $0.kind == .responseRejected }.count == 1)
    }

    @Test(
        .enabled(if: CurlTestServers.hasHTTP && CurlTestServers.hasHTTPBin, "TEST_HTTP_URL or TEST_HTTPBIN_URL not set")
    )
    func aStreamedBodyArrivesWhileTheTaskRunsAndAStoppedReaderCancelsIt() async throws {
        let base = try #require(CurlTestServers.http)
        let httpbin = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)

        // httpbin's /drip sends 5 bytes over about a second: the first arrives before the task ends.
        let drip = try await session.streamingResponse(
            for: HTTPRequest(url: httpbin.adding("/drip?duration=1&numbytes=5&delay=0&code=200"))
        )
        #expect(drip.response.status.code == 200)
        var iterator = drip.body.makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(!first.isEmpty)
        #expect(drip.task.state == .running)
        var total = first.count
        while let chunk = try await iterator.next() { total += chunk.count }
        #expect(total == 5)

        // /stream/N: N JSON lines, collected whole.
        let lines = try await session.streamingResponse(for: HTTPRequest(url: httpbin.adding("/stream/20")))
        let text = String(decoding: try await lines.body.collect(upTo: 1 << 20), as: UTF8.self)
        #expect(text.split(separator: "\n").count == 20)

        // 100 MiB read one chunk at a time, then abandoned: the transfer does not run ahead, and
        // dropping the body cancels it.
        var big: StreamingResponse? = try await session.streamingResponse(
            for: HTTPRequest(url: base.adding("/big-100m"))
        )
        let bigTask = try #require(big?.task)
        var bigIterator = big?.body.makeAsyncIterator()
        _ = try await bigIterator?.next()
        try await Task.sleep(for: .milliseconds(200))  // time for a transfer without backpressure to run far ahead
        #expect(bigTask.downloadProgress.completed < 16 << 20, "ran \(bigTask.downloadProgress.completed) bytes ahead")
        big = nil
        bigIterator = nil
        _ = (big, bigIterator)
        await session.invalidate(cancelingTasks: false)
        #expect(bigTask.error?.kind == .cancelled)
        await transport.shutdown()
    }

    static let verifier = OpenSSLCertificateVerifier()

    static func certificates(_ key: String) throws -> [Certificate] {
        let path = try #require(CurlTestServers.value(key), "\(key) not set")
        return try PinnedCertificateLoader.certificates(contentsOfFile: path, using: verifier)
    }

    /// An HTTP session manager on `base` that evaluates `policy` inside libcurl's handshake.
    static func manager(_ base: URL, _ policy: SecurityPolicy, monitor: Recorder) throws -> HTTPSessionManager {
        try HTTPSessionManager(
            baseURL: base,
            securityPolicy: policy,
            interceptor: RetryPolicy(),
            eventMonitors: [monitor]
        ) {
            policy in
            CurlTestServers.transport { $0.trustInstaller = OpenSSLTrustHook(evaluator: policy) }
        }
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func aPinnedPolicyPassesOrFailsWithAFNetworkingsTrustErrorAndTheMonitorsSeeTheRecord() async throws {
        let base = try #require(CurlTestServers.https)
        let host = try #require(base.host())
        let leaf = try #require(try Self.certificates("TEST_SERVER_CERT").first)

        let goodRecorder = Recorder()
        let good = try Self.manager(
            base,
            SecurityPolicy(pinningMode: .certificate, pinnedCertificates: [leaf], verifier: Self.verifier),
            monitor: goodRecorder
        )
        let passed = try await good.data(.get, "small")
        let streamed = try await good.streamingResponse(.get, "small")
        #expect(try await streamed.body.collect(upTo: 1000).count == 100)
        #expect(passed.data?.count == 100)
        await good.shutdown()
        let accepted = try #require(goodRecorder.all.first { $0.kind == .serverTrustEvaluated }?.trustEvaluation)
        #expect(accepted.decision == .accept)
        #expect(accepted.host == host)

        let badRecorder = Recorder()
        let bad = try Self.manager(
            base,
            SecurityPolicy(
                pinningMode: .certificate,
                pinnedCertificates: Set(try Self.certificates("TEST_OTHER_CA_FILE")),
                verifier: Self.verifier
            ),
            monitor: badRecorder
        )
        do {
            _ = try await bad.data(.get, "small")
            Issue.record("a server outside the pins was trusted")
        } catch {
            #expect(error.urlErrorCode == -1202)
            #expect(error.message == SessionError.serverTrustDescription(host: host))
            #expect(error.failingURL == base.adding("/small"))
            #expect(error.serverTrust?.decision != .accept)
            #expect(error.transportError?.metrics?.requestHeaderBytes == 0)
        }
        await bad.shutdown()
        let rejected = try #require(badRecorder.all.first { $0.kind == .serverTrustEvaluated }?.trustEvaluation)
        #expect(rejected.decision != .accept)
        #expect(badRecorder.all.filter { $0.kind == .retryScheduled }.isEmpty, "a trust failure is never retried")
    }
}
