import CourierHTTP
import CourierLocking
import CourierSecurity
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// Streamed responses: the head after redirects and retries, the body with backpressure, and the
/// consumer's way out.
@Suite struct SessionStreamingTests {
    let url = URL(string: "https://api.test/stream")!

    @Test func theHeadArrivesBeforeTheBodyAndTheChunksArriveInOrder() async throws {
        let transport = MockTransport()
        let chunks = (0..<5).map { Data(repeating: UInt8($0), count: 1000) }
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [.response(HTTPResponse(status: .ok))] + chunks.map { .body($0) })
        )
        let session = SessionManager(transport: transport)
        let stream = try await session.streamingResponse(for: HTTPRequest(url: url))
        #expect(stream.response.status.code == 200)
        var received: [Data] = []
        for try await chunk in stream.body { received.append(chunk) }
        #expect(received == chunks)
        await session.shutdown()
        #expect(session.tasks.isEmpty)
    }

    @Test func aRetryableFailureBeforeTheHeadIsRetriedButNotAfterIt() async throws {
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [
                .response(HTTPResponse(status: .ok)), .body(Data("a".utf8)),
                .fail(TransportError(category: .connectionLost, message: "reset mid-body")),
            ])
        )
        // Later stubs win: the first request is refused, the second streams.
        transport.stub(
            url: url.absoluteString,
            reply: .init(error: TransportError(category: .connectionLost, message: "reset")),
            times: 1
        )
        var policy = RetryPolicy()
        policy.exponentialBackoffScale = 0
        let session = SessionManager(transport: transport, interceptor: policy)
        let stream = try await session.streamingResponse(for: HTTPRequest(url: url))
        var received = Data()
        await #expect(throws: SessionError.self) {
            for try await chunk in stream.body { received.append(chunk) }
        }
        #expect(received == Data("a".utf8))
        #expect(transport.requests.count == 2)  // one retry before the head, none after
    }

    @Test func aFailureBeforeAnyHeadIsThrownByTheCall() async {
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(error: TransportError(category: .cannotConnect, message: "refused"))
        )
        let session = SessionManager(transport: transport)
        await #expect(throws: SessionError.self) { try await session.streamingResponse(for: HTTPRequest(url: url)) }
    }

    @Test func collectRefusesMoreThanItsLimit() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(body: Data(count: 10_000), chunkSize: 1000))
        let session = SessionManager(transport: transport)
        let stream = try await session.streamingResponse(for: HTTPRequest(url: url))
        await #expect(throws: SessionError.self) { try await stream.body.collect(upTo: 4000) }
        let small = try await session.streamingResponse(for: HTTPRequest(url: url))
        #expect(try await small.body.collect(upTo: 10_000).count == 10_000)
    }

    @Test func droppingTheBodyUnreadCancelsTheTask() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(body: Data(count: 1 << 20), chunkSize: 1000))
        let session = SessionManager(transport: transport)
        var stream: StreamingResponse? = try await session.streamingResponse(for: HTTPRequest(url: url))
        let task = try #require(stream?.task)
        stream = nil
        _ = stream
        await session.invalidate(cancelingTasks: false)  // returns once the task completed
        #expect(task.state == .completed)
        #expect(task.error?.kind == .cancelled)
    }

    @Test func cancellingTheReadingTaskCancelsTheTransfer() async throws {
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [.response(HTTPResponse(status: .ok)), .body(Data("first".utf8)), .pause(.seconds(30))])
        )
        let session = SessionManager(transport: transport)
        let stream = try await session.streamingResponse(for: HTTPRequest(url: url))
        let reading = Task { () throws(SessionError) -> Int in
            var count = 0
            for try await chunk in stream.body { count += chunk.count }
            return count
        }
        reading.cancel()
        await #expect(throws: SessionError.self) { try await reading.value }
        await session.invalidate(cancelingTasks: false)
        #expect(stream.task.error?.kind == .cancelled)
    }

    @Test func aSlowReaderHoldsTheTransferBack() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(body: Data(count: 4 << 20), chunkSize: 16 << 10))
        let session = SessionManager(transport: transport)
        let stream = try await session.streamingResponse(for: HTTPRequest(url: url))
        var iterator = stream.body.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.count == 16 << 10)
        // The reader has one chunk; the transfer may run ahead by its buffer only, not the whole body.
        try await Task.sleep(for: .milliseconds(50))
        let received = stream.task.downloadProgress.completed
        #expect(received < 2 << 20, "the transfer ran \(received) bytes ahead of a reader that took one chunk")
        while try await iterator.next() != nil {}
        await session.shutdown()
    }
}

/// The session's response disposition (AFNetworking's did-receive-response block).
@Suite struct SessionResponseDispositionTests {
    let url = URL(string: "https://api.test/big")!

    @Test func cancelStopsTheTransferAndCompletesTheTaskAsCancelledWithTheResponse() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 200, body: Data(count: 1 << 20), chunkSize: 4096))
        let seen = Lock<[Int]>([])
        var configuration = SessionConfiguration()
        configuration.responseDisposition = { task, response in
            seen.withLock { $0.append(task.taskIdentifier) }
            return response.expectedContentLength ?? 0 > 1000 ? .cancel : .allow
        }
        let session = SessionManager(transport: transport, configuration: configuration, interceptor: RetryPolicy())
        let events = session.events()
        let response = await session.response(for: HTTPRequest(url: url), serializer: DataResponseSerializer())
        #expect(response.error?.kind == .cancelled)
        #expect(response.error?.urlErrorCode == -999)
        #expect(response.response?.status.code == 200)
        #expect(response.retryCount == 0)
        #expect(seen.withLock { $0 } == [0])
        #expect(transport.requests.count == 1)
        await session.shutdown()
        var kinds: [SessionEvent.Kind] = []
        for await event in events { kinds.append(event.kind) }
        let rejected = try #require(kinds.firstIndex(of: .responseRejected))
        #expect(kinds[rejected - 1] == .responseReceived)
        #expect(kinds.contains(.taskCompleted))
    }

    @Test func allowReadsTheBodyAndRedirectHeadsAreNotAsked() async throws {
        let transport = MockTransport()
        let target = URL(string: "https://api.test/final")!
        transport.stub(url: url.absoluteString, reply: .redirect(status: 302, to: target))
        transport.stub(url: target.absoluteString, reply: .init(status: 200, body: Data("done".utf8)))
        let statuses = Lock<[Int]>([])
        var configuration = SessionConfiguration()
        configuration.responseDisposition = { _, response in
            statuses.withLock { $0.append(response.status.code) }
            return .allow
        }
        let session = SessionManager(transport: transport, configuration: configuration)
        let response = try await session.data(for: HTTPRequest(url: url))
        #expect(response.value == Data("done".utf8))
        #expect(statuses.withLock { $0 } == [200])
    }
}

/// AFNetworking's guard of a pinning policy on an insecure base URL, and its -1202 error.
@Suite struct SessionSecurityPolicyGuardTests {
    struct NoVerifier: CertificateVerifying {
        func verify(_ chain: [Certificate], anchors: [Certificate], host: String?, at time: Date?) throws(SecurityError)
        {}
        func subjectPublicKeyInfo(of certificate: Certificate) throws(SecurityError) -> Data { Data() }
        func sha256(_ data: Data) -> Data { Data(count: 32) }
        func certificates(fromPEM pem: Data) throws(SecurityError) -> [Certificate] { [] }
        func info(of certificate: Certificate) throws(SecurityError) -> CertificateInfo {
            throw SecurityError(.invalidCertificate, reason: "no parser in this test")
        }
    }

    func policy(_ mode: PinningMode) -> SecurityPolicy {
        SecurityPolicy(pinningMode: mode, pinnedCertificates: [], verifier: NoVerifier())
    }

    @Test func aPinningPolicyNeedsAnHTTPSBaseURLWithAFNetworkingsReason() throws {
        for mode in [PinningMode.certificate, .publicKey] {
            for base in [URL(string: "http://api.test"), URL(string: "ftp://api.test"), nil] {
                let made = Lock(false)
                #expect(throws: InsecureSecurityPolicyError.self) {
                    _ = try HTTPSessionManager(baseURL: base, securityPolicy: policy(mode)) { _ in
                        made.withLock { $0 = true }
                        return MockTransport()
                    }
                }
                #expect(made.withLock { $0 } == false, "the transport is not made when the guard refuses")
            }
        }
        let error = InsecureSecurityPolicyError(pinningMode: .certificate, baseURL: nil)
        #expect(
            error.reason
                == "A security policy configured with `AFSSLPinningModeCertificate` can only be applied on a manager with a secure base URL (i.e. https)"
        )
        #expect(error.description.hasPrefix("Invalid Security Policy: "))
        #expect(
            InsecureSecurityPolicyError(pinningMode: .publicKey, baseURL: nil).reason.contains(
                "`AFSSLPinningModePublicKey`"
            )
        )
    }

    @Test func aPolicyThatDoesNotPinIsAcceptedOnHTTPAndThePinningOneOnHTTPS() async throws {
        let plain = try HTTPSessionManager(baseURL: URL(string: "http://api.test"), securityPolicy: policy(.none)) {
            _ in
            MockTransport()
        }
        let handed = Lock<PinningMode?>(nil)
        let pinned = try HTTPSessionManager(
            baseURL: URL(string: "https://api.test/v1"),
            securityPolicy: policy(.certificate)
        ) {
            policy in
            handed.withLock { $0 = policy.pinningMode }
            return MockTransport()
        }
        #expect(handed.withLock { $0 } == .certificate)
        #expect(pinned.baseURL?.absoluteString == "https://api.test/v1/")
        await plain.shutdown()
        await pinned.shutdown()
        await pinned.shutdown()  // idempotent
    }

    @Test func aTrustFailureCarriesAFNetworkingsDescriptionAndCode() async throws {
        let transport = MockTransport()
        transport.stub(
            url: "https://api.test/me",
            reply: .init(
                error: TransportError(
                    category: .serverTrustFailed,
                    message: "the trust policy rejected the server: pin mismatch"
                )
            )
        )
        let session = SessionManager(transport: transport, interceptor: RetryPolicy())
        let response = await session.response(
            for: HTTPRequest(url: URL(string: "https://api.test/me")!),
            serializer: DataResponseSerializer()
        )
        let error = try #require(response.error)
        #expect(error.urlErrorCode == -1202)
        #expect(
            error.message
                == "The certificate for this server is invalid. You might be connecting to a server that is pretending to be \u{201C}api.test\u{201D} which could put your confidential information at risk."
        )
        #expect(error.description.contains("(the trust policy rejected the server: pin mismatch)"))
        #expect(error.failingURL?.absoluteString == "https://api.test/me")
        #expect(error.serverTrust == nil)
        #expect(response.retryCount == 0)
    }
}
