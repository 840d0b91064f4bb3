import CourierSecurity
import CourierTesting
import Foundation
import Testing

@Suite struct MockTrustEvaluatorTests {
    /// A verifier that is never asked anything: the mock evaluator decides without it.
    private struct UnusedVerifier: CertificateVerifying {
        func verify(_ chain: [Certificate], anchors: [Certificate], host: String?, at time: Date?) throws(SecurityError)
        {}
        func subjectPublicKeyInfo(of certificate: Certificate) throws(SecurityError) -> Data { Data() }
        func sha256(_ data: Data) -> Data { Data() }
        func certificates(fromPEM pem: Data) throws(SecurityError) -> [Certificate] { [] }
        func info(of certificate: Certificate) throws(SecurityError) -> CertificateInfo {
            throw SecurityError(.invalidCertificate, reason: "unused")
        }
    }

    private func trust(_ host: String) -> ServerTrust {
        ServerTrust(
            host: host,
            certificates: [Certificate(derBytes: Data([0x30]))],
            chainVerdict: .trusted,
            hostVerdict: .matches,
            verifier: UnusedVerifier()
        )
    }

    @Test func answersInScriptOrderThenTheDefaultAndRecordsHosts() {
        let evaluator = MockTrustEvaluator(decisions: [.reject(reason: "pin mismatch")], otherwise: .accept)

        #expect(evaluator.evaluate(trust("a.example.com")) == .reject(reason: "pin mismatch"))
        #expect(evaluator.evaluate(trust("b.example.com")) == .accept)
        evaluator.setDecision(.reject(reason: "rotated"))
        #expect(evaluator.evaluate(trust("c.example.com")) == .reject(reason: "rotated"))
        #expect(evaluator.evaluatedHosts == ["a.example.com", "b.example.com", "c.example.com"])
        #expect(evaluator.evaluations.first?.certificates == [Certificate(derBytes: Data([0x30]))])
    }

    @Test func composesWithTheRealEvaluators() {
        let evaluator = MockTrustEvaluator(otherwise: .reject(reason: "not pinned"))
        let composite = CompositeTrustEvaluator([DefaultTrustEvaluator(), evaluator])

        #expect(composite.evaluate(trust("api.example.com")) == .reject(reason: "not pinned"))
        #expect(evaluator.evaluatedHosts == ["api.example.com"])
    }
}
