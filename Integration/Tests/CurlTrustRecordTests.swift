import CourierCurl
import CourierHTTP
import CourierSecurity
import CourierSecurityOpenSSL
import CourierTransport
import Foundation
import Testing

/// The trust-evaluation records that `TransferMetrics` carries: on the transfer that opened a TLS
/// connection while an evaluator is configured, never on one that reused it.
@Suite struct CurlTrustRecordTests {
    static let verifier = CurlServerTrustTests.verifier

    /// A public-key pin on the per-run server certificate, and that certificate's names.
    static func pinnedLeaf() throws -> (pin: PublicKeyPin, leaf: CertificateInfo, issuer: CertificateInfo) {
        let leaf = try #require(try CurlServerTrustTests.certificates("TEST_SERVER_CERT").first)
        let ca = try #require(try CurlServerTrustTests.certificates("TEST_CA_FILE").first)
        return (
            try PublicKeyPin(verifier.publicKeyPin(of: leaf)), try verifier.info(of: leaf), try verifier.info(of: ca)
        )
    }

    static func transport(_ evaluator: (any ServerTrustEvaluating)?) -> CurlTransport {
        CurlTestServers.transport { configuration in
            configuration.trustInstaller = evaluator.map { OpenSSLTrustHook(evaluator: $0) }
        }
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func acceptingPinRecordsTheLeafOnTheOpeningTransferOnly() async throws {
        let url = try #require(CurlTestServers.https).adding("/small")
        let (pin, leaf, issuer) = try Self.pinnedLeaf()
        let transport = Self.transport(PublicKeyPinningTrustEvaluator(pins: [pin]))
        let before = Date()
        let first = await record(transport.startTransfer(HTTPRequest(url: url)))
        let second = await record(transport.startTransfer(HTTPRequest(url: url)))
        let after = Date()
        await transport.shutdown()

        #expect(first.error == nil)
        let metrics = try #require(first.metrics)
        #expect(!metrics.reusedConnection)
        let trust = try #require(metrics.trustEvaluation)
        #expect(trust.decision == .accept)
        #expect(trust.reason == nil)
        #expect(trust.host == url.host())
        #expect(trust.leafSubject == "localhost")  // make-certs.py issues the leaf with CN=localhost
        #expect(trust.leafSubject == leaf.subjectCommonName)
        #expect(trust.chain.first?.issuer == issuer.subjectCommonName)
        #expect(trust.chain.first?.notAfter == leaf.notAfter)
        #expect(trust.defaultVerdict == "chain trusted; host matches")
        let started = try #require(metrics.startDate)
        #expect(started >= before && started <= after)

        #expect(second.error == nil)
        let reused = try #require(second.metrics)
        #expect(reused.reusedConnection)
        #expect(reused.trustEvaluation == nil)
        let secondStart = try #require(reused.startDate)
        #expect(secondStart >= started && secondStart <= after)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func rejectingPinFailsWithTheRecordAndItsReason() async throws {
        let url = try #require(CurlTestServers.https).adding("/small")
        let otherCA = try #require(try CurlServerTrustTests.certificates("TEST_OTHER_CA_FILE").first)
        let wrongPin = try PublicKeyPin(Self.verifier.publicKeyPin(of: otherCA))
        let transport = Self.transport(PublicKeyPinningTrustEvaluator(pins: [wrongPin]))
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()

        let error = try #require(recorded.error)
        #expect(error.category == .serverTrustFailed)
        #expect(recorded.response == nil)
        let trust = try #require(error.metrics?.trustEvaluation)
        #expect(trust.decision == .reject(reason: "no certificate in the chain has a pinned public key"))
        #expect(error.message == "the trust policy rejected the server: \(trust.reason ?? "-")")
        #expect(trust.leafSubject == "localhost")
        #expect(trust.defaultVerdict == "chain trusted; host matches")
        #expect(error.metrics?.startDate != nil)
        #expect(error.metrics?.requestHeaderBytes == 0)
    }

    /// Concurrent HTTP/2 transfers multiplex: whichever opened a connection carries its record, the
    /// others none, and there is exactly one record per evaluation.
    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func multiplexedTransfersCarryOneRecordPerConnection() async throws {
        let url = try #require(CurlTestServers.https).adding("/small")
        let evaluator = RecordingTrustEvaluator(DefaultTrustEvaluator())
        let transport = Self.transport(evaluator)
        let results = await withTaskGroup(of: RecordedTransfer.self) { group in
            for _ in 0..<8 {
                group.addTask { await record(transport.startTransfer(HTTPRequest(url: url))) }
            }
            return await group.reduce(into: [RecordedTransfer]()) { $0.append($1) }
        }
        await transport.shutdown()

        let metrics = results.compactMap(\.metrics)
        #expect(metrics.count == 8)
        #expect(metrics.allSatisfy { $0.protocolVersion == .http2 })
        let opening = metrics.filter { !$0.reusedConnection }
        #expect(!opening.isEmpty)
        #expect(opening.allSatisfy { $0.trustEvaluation?.decision == .accept })
        #expect(metrics.filter(\.reusedConnection).allSatisfy { $0.trustEvaluation == nil })
        #expect(metrics.compactMap(\.trustEvaluation).count == evaluator.all.count)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func withoutAnEvaluatorThereIsNoRecord() async throws {
        let url = try #require(CurlTestServers.https).adding("/small")
        let transport = Self.transport(nil)
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()
        #expect(recorded.error == nil)
        #expect(recorded.metrics?.reusedConnection == false)
        #expect(recorded.metrics?.tlsHandshake ?? .zero > .zero)
        #expect(recorded.metrics?.trustEvaluation == nil)
        #expect(recorded.metrics?.startDate != nil)
    }
}
