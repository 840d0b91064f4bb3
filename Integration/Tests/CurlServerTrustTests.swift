import CourierCurl
import CourierHTTP
import CourierLocking
import CourierSecurity
import CourierSecurityOpenSSL
import CourierTransport
import Foundation
import Testing

/// Wraps an evaluator and keeps what it saw of every handshake, with its decision.
final class RecordingTrustEvaluator: ServerTrustEvaluating {
    struct Entry: Sendable {
        let host: String?
        let chainTrusted: Bool
        let hostVerdict: HostVerdict
        let certificateCount: Int
        let verifiedChainCount: Int
        let decision: TrustDecision
    }

    let inner: any ServerTrustEvaluating
    private let entries = Lock<[Entry]>([])

    init(_ inner: any ServerTrustEvaluating) { self.inner = inner }

    func evaluate(_ trust: ServerTrust) -> TrustDecision {
        let decision = inner.evaluate(trust)
        let entry = Entry(
            host: trust.host,
            chainTrusted: trust.chainVerdict.isTrusted,
            hostVerdict: trust.hostVerdict,
            certificateCount: trust.certificates.count,
            verifiedChainCount: trust.verifiedChain.count,
            decision: decision
        )
        entries.withLock { $0.append(entry) }
        return decision
    }

    var all: [Entry] { entries.withLock { $0 } }
}

@Suite struct CurlServerTrustTests {
    static let verifier = OpenSSLCertificateVerifier()
    static let hasSelfSigned = CurlTestServers.hasTLS && CurlTestServers.value("TEST_SELFSIGNED_URL") != nil

    /// The certificates of the PEM file named by an environment variable of `ci/servers`.
    static func certificates(_ key: String) throws -> [Certificate] {
        let path = try #require(CurlTestServers.value(key), "\(key) not set")
        return try verifier.certificates(fromPEM: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// One GET through a fresh transport whose trust policy is `evaluator` behind an `OpenSSLTrustHook`.
    func fetch(
        _ url: URL,
        _ evaluator: RecordingTrustEvaluator,
        adjust: (inout CurlTransport.Configuration) -> Void = { _ in }
    ) async -> RecordedTransfer {
        let transport = CurlTestServers.transport {
            $0.trustInstaller = OpenSSLTrustHook(evaluator: evaluator)
            adjust(&$0)
        }
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()
        return recorded
    }

    @Test(.enabled(if: hasSelfSigned, "TEST_SELFSIGNED_URL not set"))
    func acceptAllTrustsSelfSignedServer() async throws {
        let base = try #require(CurlTestServers.url("TEST_SELFSIGNED_URL"))
        let evaluator = RecordingTrustEvaluator(AcceptAllTrustEvaluator())
        let recorded = await fetch(base.adding("/small"), evaluator)
        #expect(recorded.error == nil)
        #expect(recorded.response?.status.code == 200)
        #expect(recorded.body.count == 100)
        let entry = try #require(evaluator.all.first)
        #expect(evaluator.all.count == 1)
        #expect(entry.host == "127.0.0.1")
        #expect(!entry.chainTrusted)  // the transport trusts the per-run CA, not this certificate
        #expect(entry.hostVerdict == .matches)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func rejectAllFailsBeforeSendingWithTheReason() async throws {
        let base = try #require(CurlTestServers.https)
        let evaluator = RecordingTrustEvaluator(RejectAllTrustEvaluator(reason: "the test says no"))
        let recorded = await fetch(base.adding("/small"), evaluator)
        let error = try #require(recorded.error)
        #expect(error.category == .serverTrustFailed)
        #expect(error.code == 60)
        #expect(error.message == "the trust policy rejected the server: the test says no")
        #expect(recorded.response == nil)
        #expect(error.metrics?.requestHeaderBytes == 0)
        let entry = try #require(evaluator.all.first)
        #expect(entry.chainTrusted)
        #expect(entry.certificateCount >= 1)
        #expect(entry.verifiedChainCount == entry.certificateCount + 1)  // the per-run root from TEST_CA_FILE
    }

    @Test(.enabled(if: hasSelfSigned, "TEST_SELFSIGNED_URL not set"))
    func defaultEvaluatorTrustsOnlyTheConfiguredAnchors() async throws {
        let https = try #require(CurlTestServers.https)
        let selfSigned = try #require(CurlTestServers.url("TEST_SELFSIGNED_URL"))
        let accepted = await fetch(https.adding("/small"), RecordingTrustEvaluator(DefaultTrustEvaluator()))
        #expect(accepted.error == nil)
        #expect(accepted.response?.status.code == 200)
        let evaluator = RecordingTrustEvaluator(DefaultTrustEvaluator())
        let rejected = await fetch(selfSigned.adding("/small"), evaluator)
        #expect(rejected.error?.category == .serverTrustFailed)
        #expect(rejected.error?.message.hasPrefix("the trust policy rejected the server: ") == true)
        #expect(evaluator.all.first?.chainTrusted == false)
    }

    @Test(.enabled(if: hasSelfSigned, "TEST_SELFSIGNED_URL not set"))
    func pinnedCertificatesAcceptThePinnedChainOnly() async throws {
        let https = try #require(CurlTestServers.https).adding("/small")
        let selfSigned = try #require(CurlTestServers.url("TEST_SELFSIGNED_URL")).adding("/small")
        let ca = try Self.certificates("TEST_CA_FILE")
        let leaf = try #require(try Self.certificates("TEST_SERVER_CERT").first)
        let otherCA = try Self.certificates("TEST_OTHER_CA_FILE")
        let selfSignedCertificate = try Self.certificates("TEST_SELFSIGNED_CERT")

        let pinnedCA = await fetch(
            https,
            RecordingTrustEvaluator(PinnedCertificatesTrustEvaluator(pinnedCertificates: ca))
        )
        #expect(pinnedCA.response?.status.code == 200)
        let pinnedLeaf = await fetch(
            https,
            RecordingTrustEvaluator(PinnedCertificatesTrustEvaluator(pinnedCertificates: [leaf]))
        )
        #expect(pinnedLeaf.response?.status.code == 200)
        let wrongPin = await fetch(
            https,
            RecordingTrustEvaluator(PinnedCertificatesTrustEvaluator(pinnedCertificates: otherCA))
        )
        #expect(wrongPin.error?.category == .serverTrustFailed)
        #expect(wrongPin.response == nil)
        // The self-signed server is untrusted by the CA store, and trusted through its pin.
        let evaluator = RecordingTrustEvaluator(
            PinnedCertificatesTrustEvaluator(pinnedCertificates: selfSignedCertificate)
        )
        let pinnedSelfSigned = await fetch(selfSigned, evaluator)
        #expect(pinnedSelfSigned.response?.status.code == 200)
        #expect(evaluator.all.first?.chainTrusted == false)
    }

    @Test(.enabled(if: hasSelfSigned, "TEST_SELFSIGNED_URL not set"))
    func publicKeyPinsAcceptThePinnedKeyOnly() async throws {
        let https = try #require(CurlTestServers.https).adding("/small")
        let selfSigned = try #require(CurlTestServers.url("TEST_SELFSIGNED_URL")).adding("/small")
        let leaf = try #require(try Self.certificates("TEST_SERVER_CERT").first)
        let otherCA = try #require(try Self.certificates("TEST_OTHER_CA_FILE").first)
        let selfSignedCertificate = try #require(try Self.certificates("TEST_SELFSIGNED_CERT").first)
        let leafPin = try PublicKeyPin(Self.verifier.publicKeyPin(of: leaf))
        let otherPin = try PublicKeyPin(Self.verifier.publicKeyPin(of: otherCA))
        let selfSignedPin = try PublicKeyPin(Self.verifier.publicKeyPin(of: selfSignedCertificate))

        let pinned = await fetch(https, RecordingTrustEvaluator(PublicKeyPinningTrustEvaluator(pins: [leafPin])))
        #expect(pinned.response?.status.code == 200)
        let wrong = await fetch(https, RecordingTrustEvaluator(PublicKeyPinningTrustEvaluator(pins: [otherPin])))
        #expect(wrong.error?.category == .serverTrustFailed)
        #expect(
            wrong.error?.message
                == "the trust policy rejected the server: no certificate in the chain has a pinned public key"
        )
        let strict = await fetch(
            selfSigned,
            RecordingTrustEvaluator(PublicKeyPinningTrustEvaluator(pins: [selfSignedPin]))
        )
        #expect(strict.error?.category == .serverTrustFailed)  // default trust is required by default
        let lenient = await fetch(
            selfSigned,
            RecordingTrustEvaluator(PublicKeyPinningTrustEvaluator(pins: [selfSignedPin], requiresDefaultTrust: false))
        )
        #expect(lenient.response?.status.code == 200)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func evaluatorChecksTheHostTheRequestNames() async throws {
        let base = try #require(CurlTestServers.https)
        let port = try #require(base.port)
        let wrongHost = try #require(URL(string: "https://wrong.test:\(port)/small"))
        let connectToLoopback: (inout CurlTransport.Configuration) -> Void = {
            $0.connectOverrides = [.init(host: "wrong.test", port: port, targetHost: "127.0.0.1", targetPort: port)]
        }
        let strict = RecordingTrustEvaluator(DefaultTrustEvaluator())
        let mismatch = await fetch(wrongHost, strict, adjust: connectToLoopback)
        #expect(mismatch.error?.category == .serverTrustFailed)
        #expect(mismatch.error?.metrics?.requestHeaderBytes == 0)
        #expect(strict.all.first?.host == "wrong.test")
        #expect(strict.all.first?.hostVerdict == .mismatch)
        #expect(strict.all.first?.chainTrusted == true)

        let lenient = RecordingTrustEvaluator(DefaultTrustEvaluator(validatesHost: false))
        let accepted = await fetch(wrongHost, lenient, adjust: connectToLoopback)
        #expect(accepted.response?.status.code == 200)

        let named = RecordingTrustEvaluator(DefaultTrustEvaluator())
        let apiTest = try #require(URL(string: "https://api.test:\(port)/small"))
        let resolved = await fetch(apiTest, named) {
            $0.resolveOverrides = [.init(host: "api.test", port: port, addresses: ["127.0.0.1"])]
        }
        #expect(resolved.response?.status.code == 200)
        #expect(named.all.first?.host == "api.test")
        #expect(named.all.first?.hostVerdict == .matches)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func evaluatorRunsOnEveryNewConnection() async throws {
        let url = try #require(CurlTestServers.https).adding("/small")
        let evaluator = RecordingTrustEvaluator(DefaultTrustEvaluator())
        let transport = CurlTestServers.transport {
            $0.trustInstaller = OpenSSLTrustHook(evaluator: evaluator)
            $0.httpVersion = .http1_1
        }
        // `Connection: close` makes each transfer open a new connection; with TLS session
        // resumption on, the second handshake would be resumed and skip the evaluator.
        var request = HTTPRequest(url: url)
        try request.headers.set(name: "Connection", value: "close")
        for _ in 0..<2 {
            let recorded = await record(transport.startTransfer(request))
            #expect(recorded.response?.status.code == 200)
            #expect(recorded.metrics?.reusedConnection == false)
        }
        #expect(evaluator.all.count == 2)
        // A reused connection is not evaluated again: the policy is fixed per transport.
        let reused = await record(transport.startTransfer(HTTPRequest(url: url)))
        let again = await record(transport.startTransfer(HTTPRequest(url: url)))
        #expect(reused.response?.status.code == 200)
        #expect(again.metrics?.reusedConnection == true)
        #expect(evaluator.all.count == 3)
        await transport.shutdown()
    }

    @Test(
        .enabled(if: IntegrationEnvironment.python != nil, "COURIER_PYTHON not set"),
        .enabled(if: CurlTestServers.value("TEST_SERVER_KEY") != nil, "TEST_SERVER_KEY not set")
    )
    func rejectedConnectionsCarryNoRequestBytesToTheServer() async throws {
        let rejecting: [any ServerTrustEvaluating] = [
            RejectAllTrustEvaluator(),
            PinnedCertificatesTrustEvaluator(pinnedCertificates: try Self.certificates("TEST_OTHER_CA_FILE")),
            PublicKeyPinningTrustEvaluator(
                pins: [
                    try PublicKeyPin(
                        Self.verifier.publicKeyPin(of: try #require(Self.certificates("TEST_OTHER_CA_FILE").first))
                    )
                ]
            ),
        ]
        let server = try await TLSByteCounter.start(connections: rejecting.count + 1)
        let port = try #require(server.ready["PORT"])
        let url = try #require(URL(string: "https://127.0.0.1:\(port)/probe"))
        for evaluator in rejecting {
            let recorded = await fetch(url, RecordingTrustEvaluator(evaluator))
            #expect(recorded.error?.category == .serverTrustFailed)
        }
        // The control: the same server, trusted, receives the request.
        let accepted = await fetch(url, RecordingTrustEvaluator(DefaultTrustEvaluator()))
        #expect(accepted.response?.status.code == 200)

        try await TLSByteCounter.expectRejectionsThenControl(server, rejected: rejecting.count)
    }
}

/// A helper server from `Integration/tools` run under `$COURIER_PYTHON`: it writes `KEY=VALUE` lines
/// to a ready file once it listens, serves a fixed number of connections, prints one line per
/// connection and exits.
final class PythonTestServer {
    let process: Process
    let ready: [String: String]
    private let outputFile: URL

    private init(process: Process, ready: [String: String], outputFile: URL) {
        self.process = process
        self.ready = ready
        self.outputFile = outputFile
    }

    static func start(_ script: String, arguments: [String]) async throws -> PythonTestServer {
        guard let python = IntegrationEnvironment.python else { throw ToolError(message: "COURIER_PYTHON is not set") }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("courier-server-\(UUID().uuidString)")
        let readyFile = base.appendingPathExtension("ready")
        let outputFile = base.appendingPathExtension("out")
        try Data().write(to: outputFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [IntegrationEnvironment.toolsDirectory.appendingPathComponent(script).path]
            + arguments + ["--ready-file", readyFile.path]
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        try process.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while !FileManager.default.fileExists(atPath: readyFile.path) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                if process.isRunning { process.terminate() }
                throw ToolError(message: "\(script) did not become ready")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let text = try String(contentsOf: readyFile, encoding: .utf8)
        try? FileManager.default.removeItem(at: readyFile)
        var ready: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { ready[String(parts[0])] = String(parts[1]) }
        }
        return PythonTestServer(process: process, ready: ready, outputFile: outputFile)
    }

    /// Waits (without blocking a thread) for the server to exit, and returns its output lines.
    func output() async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw ToolError(message: "the helper server did not exit")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let text = try String(contentsOf: outputFile, encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }
}
