import Courier
import CourierCurl
import CourierDiagnostics
import CourierLocking
import CourierTestSupport
import Foundation
import Testing

/// The composition root over libcurl and the loopback servers: what `CourierClient()` does out of
/// the box, with a security policy, and when it is shut down or dropped.
@Suite struct CourierClientTests {
    static var hasServers: Bool { SessionOverCurlTests.hasServers }
    static var hasH2OverTLS: Bool { CurlTestServers.h2 != nil && CurlTestServers.caFile != nil }

    /// A client that ignores the environment's proxies and trusts the test CA.
    static func client(
        _ baseURL: URL?,
        _ configure: (inout CourierClient.Configuration) -> Void = { _ in }
    ) throws -> CourierClient {
        try CourierClient(baseURL: baseURL) { configuration in
            configuration.curl.proxy = .none
            configuration.curl.tls.caFile = CurlTestServers.caFile
            configuration.retryPolicy?.exponentialBackoffScale = 0.02
            configure(&configuration)
        }
    }

    struct Slideshow: Decodable, Sendable {
        struct Show: Decodable, Sendable {
            let title: String
            let slides: [JSONValue]
        }

        let slideshow: Show
    }

    @Test(.enabled(if: hasServers, "TEST_HTTP_URL, TEST_HTTPBIN_URL or FAULT_HTTP_URL not set"))
    func getsAndDecodesJSONFromHTTPBin() async throws {
        let client = try Self.client(CurlTestServers.httpbin)

        let show: Slideshow = try await client.get("json")
        let json = try await client.get("get", parameters: ["q": "a b"], as: JSONValue.self)

        #expect(show.slideshow.title == "Sample Slide Show")
        #expect(show.slideshow.slides.count == 2)
        #expect(json["args"]?["q"]?.stringValue == "a b")
        await client.shutdown()
    }

    @Test(.enabled(if: hasServers, "TEST_HTTP_URL, TEST_HTTPBIN_URL or FAULT_HTTP_URL not set"))
    func retriesA503AndFollowsARedirectByDefault() async throws {
        let fault = try #require(SessionOverCurlTests.faultServer)
        let nginx = try #require(CurlTestServers.http)
        let client = try Self.client(nil)

        let retried = try await client.data(
            .get,
            fault.adding("/flaky?id=\(UUID().uuidString)&failures=2").absoluteString
        )
        let redirected = try await client.data(.get, nginx.adding("/redirect").absoluteString)

        #expect(String(decoding: retried.data ?? Data(), as: UTF8.self) == "attempt 3\n")
        #expect(retried.retryCount == 2)
        #expect(redirected.redirects.map(\.status.code) == [302])
        #expect(redirected.request?.url == nginx.adding("/small"))
        #expect(redirected.data?.count == 100)
        await client.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func aPinnedCertificatePolicyPassesForTheServerAndFailsWithAFsCodeOtherwise() async throws {
        let base = try #require(CurlTestServers.https)
        let verifier = CourierClient.certificateVerifier
        func pinned(_ key: String) throws -> SecurityPolicy {
            let path = try #require(CurlTestServers.value(key), "\(key) not set")
            let certificates = try PinnedCertificateLoader.certificates(contentsOfFile: path, using: verifier)
            return SecurityPolicy(pinningMode: .certificate, pinnedCertificates: certificates, verifier: verifier)
        }
        let serverPolicy = try pinned("TEST_SERVER_CERT")
        let otherPolicy = try pinned("TEST_OTHER_CA_FILE")
        let matching = try Self.client(base) { $0.securityPolicy = serverPolicy }
        let other = try Self.client(base) { $0.securityPolicy = otherPolicy }

        let accepted = try await matching.data(.get, "small")
        let rejected = await other.session.session.response(
            for: HTTPRequest(url: base.adding("/small")),
            serializer: DataResponseSerializer()
        )

        #expect(accepted.data?.count == 100)
        #expect(accepted.metrics.first?.trustEvaluation?.isAccepted == true)
        #expect(rejected.error?.kind == .transport(.serverTrustFailed))
        #expect(rejected.error?.urlErrorCode == -1202)
        #expect(rejected.response == nil)
        #expect(rejected.retryCount == 0)
        await matching.shutdown()
        await other.shutdown()
    }

    @Test(.enabled(if: hasServers, "TEST_HTTP_URL, TEST_HTTPBIN_URL or FAULT_HTTP_URL not set"))
    func shutdownIsIdempotentAndStopsTheTransport() async throws {
        let httpbin = try #require(CurlTestServers.httpbin)
        let client = try Self.client(httpbin)
        let transport = try #require(client.transport as? CurlTransport)
        let slow = Task { try await client.data(.get, "delay/5") }
        while client.session.session.tasks.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        let started = ContinuousClock.now

        async let first: Void = client.shutdown()
        async let second: Void = client.shutdown()
        _ = await (first, second)
        await client.shutdown()

        await #expect {
            _ = try await slow.value
        } throws: { ($0 as? SessionError)?.kind == .cancelled }
        #expect(started.duration(to: .now) < .seconds(4))
        await #expect {
            _ = try await transport.startTransfer(HTTPRequest(url: httpbin.adding("/get"))).collect(upTo: 1024)
        } throws: { ($0 as? TransportError)?.category == .shutDown }
    }

    @Test(.enabled(if: hasH2OverTLS, "TEST_H2_URL or TEST_CA_FILE not set"))
    func aDroppedRootFinishesItsRequestThenStopsTheLoopThread() async throws {
        let h2 = try #require(CurlTestServers.h2)
        let loopThreads = LoopThreadRecorder()
        let done = CompletionSignal()
        let status = Lock<Int?>(nil)
        var client: CourierClient? = try Self.client(h2) { configuration in
            // The trust evaluation is reported from inside the handshake, on the loop thread: the
            // recorder learns that thread's id from it.
            configuration.securityPolicy = .defaultPolicy(verifier: CourierClient.certificateVerifier)
            configuration.curl.diagnostics = Diagnostics(handler: loopThreads, label: "test")
        }
        client?.session.get("delay/1") { response in
            status.withLock { $0 = response.response?.status.code }
            done.signal()
        }
        let thread = try #require(await loopThreads.first(within: .seconds(10)))
        #expect(FileManager.default.fileExists(atPath: thread))

        client = nil
        await done.wait()

        #expect(status.withLock { $0 } == 200)
        let deadline = ContinuousClock.now + .seconds(10)
        while FileManager.default.fileExists(atPath: thread) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!FileManager.default.fileExists(atPath: thread), "the loop thread \(thread) is still running")
    }
}

/// Remembers the `/proc/self/task/<tid>` folder of the thread that emits diagnostics.
final class LoopThreadRecorder: DiagnosticHandler {
    private let threads = Lock<[String]>([])

    var minimumLevel: DiagnosticLevel { .info }

    func handle(_ entry: DiagnosticEntry) {
        // /proc/thread-self links to "<pid>/task/<tid>": one readlink, which never blocks.
        guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"),
            let tid = link.split(separator: "/").last
        else { return }
        threads.withLock { $0.append("/proc/self/task/\(tid)") }
    }

    /// The first recorded thread, waiting for one up to `limit`.
    func first(within limit: Duration) async -> String? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let first = threads.withLock({ $0.first }) { return first }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}
