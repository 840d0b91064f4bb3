import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Synchronization
import Testing

@Suite struct CurlServerTrustTests {
    /// Every challenge an evaluator saw.
    final class ChallengeLog: Sendable {
        private let entries = Mutex<[CurlServerTrustChallenge]>([])
        func append(_ challenge: CurlServerTrustChallenge) { entries.withLock { $0.append(challenge) } }
        var all: [CurlServerTrustChallenge] { entries.withLock { $0 } }
    }

    /// The DER bytes of the first certificate in a PEM file.
    private func derOfFirstCertificate(_ path: String) throws -> Data {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "-----BEGIN CERTIFICATE-----"),
            let end = lines[start...].firstIndex(of: "-----END CERTIFICATE-----"),
            let der = Data(base64Encoded: lines[(start + 1)..<end].joined())
        else { throw ToolError(message: "no certificate in \(path)") }
        return der
    }

    @Test(
        .enabled(
            if: CurlTestServers.hasTLS && CurlTestServers.value("TEST_SELFSIGNED_URL") != nil,
            "TEST_SELFSIGNED_URL not set"
        )
    )
    func acceptsPinnedSelfSignedCertificate() async throws {
        let base = try #require(CurlTestServers.url("TEST_SELFSIGNED_URL"))
        let pinned = try derOfFirstCertificate(try #require(CurlTestServers.value("TEST_SELFSIGNED_CERT")))
        let log = ChallengeLog()
        let transport = CurlTestServers.transport {
            $0.serverTrustEvaluator = { challenge in
                log.append(challenge)
                return challenge.certificateChain.first == pinned
            }
        }
        for _ in 0..<2 {
            let result = try await transport.startTransfer(HTTPRequest(url: base.adding("/small"))).collect(upTo: 1024)
            #expect(result.response.status.code == 200)
        }
        let challenges = log.all
        #expect(challenges.count == 1)  // one connection, reused
        #expect(challenges.first?.host == "127.0.0.1")
        #expect(challenges.first?.chainVerified == false)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func rejectsBeforeSendingWhenEvaluatorSaysNo() async throws {
        let base = try #require(CurlTestServers.https)
        let log = ChallengeLog()
        let transport = CurlTestServers.transport {
            $0.serverTrustEvaluator = { challenge in
                log.append(challenge)
                return false
            }
        }
        let recorded = await record(transport.startTransfer(HTTPRequest(url: base.adding("/small"))))
        #expect(recorded.error?.category == .serverTrustFailed)
        #expect(recorded.error?.code == 60)
        #expect(recorded.response == nil)
        #expect(recorded.error?.metrics?.requestHeaderBytes == 0)
        let challenge = try #require(log.all.first)
        #expect(challenge.chainVerified)
        #expect(challenge.certificateChain.count >= 2)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func reportsHostMismatchToEvaluator() async throws {
        let base = try #require(CurlTestServers.https)
        let port = try #require(base.port)
        let log = ChallengeLog()
        let transport = CurlTestServers.transport {
            $0.connectOverrides = [.init(host: "wrong.test", port: port, targetHost: "127.0.0.1", targetPort: port)]
            $0.serverTrustEvaluator = { challenge in
                log.append(challenge)
                return challenge.chainVerified
            }
        }
        let url = try #require(URL(string: "https://wrong.test:\(port)/small"))
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        #expect(recorded.error?.category == .serverTrustFailed)
        #expect(log.all.first?.host == "wrong.test")
        #expect(log.all.first?.chainVerified == false)
        await transport.shutdown()
    }
}
