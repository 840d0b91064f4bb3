import CourierSecurity
import Testing

@Suite struct PinnedCertificatesTrustEvaluatorTests {
    @Test func verifiesThePresentedChainWithOnlyThePinnedAnchorsAndTheHost() {
        let verifier = TrustFixtures.verifier()
        let evaluator = PinnedCertificatesTrustEvaluator(pinnedCertificates: [TrustFixtures.root])

        let decision = evaluator.evaluate(TrustFixtures.trust(verifier: verifier))

        #expect(decision == .accept)
        #expect(
            verifier.verifyCalls == [
                .init(
                    chain: [TrustFixtures.leaf, TrustFixtures.intermediate],
                    anchors: [TrustFixtures.root],
                    host: "api.test",
                    time: nil
                )
            ]
        )
    }

    @Test func leavesTheHostOutWhenHostValidationIsOff() {
        let verifier = TrustFixtures.verifier()
        let evaluator = PinnedCertificatesTrustEvaluator(pinnedCertificates: [TrustFixtures.leaf], validatesHost: false)

        #expect(evaluator.evaluate(TrustFixtures.trust(verifier: verifier)) == .accept)
        #expect(verifier.verifyCalls.map(\.host) == [nil])
    }

    @Test func acceptsAnUntrustedDefaultChainUnlessDefaultTrustIsRequired() {
        let untrusted = TrustFixtures.trust(chain: TrustFixtures.selfSigned)
        let lenient = PinnedCertificatesTrustEvaluator(pinnedCertificates: [TrustFixtures.leaf])
        let strict = PinnedCertificatesTrustEvaluator(
            pinnedCertificates: [TrustFixtures.leaf],
            requiresDefaultTrust: true
        )

        #expect(lenient.evaluate(untrusted) == .accept)
        #expect(
            strict.evaluate(untrusted)
                == .reject(reason: "certificate chain is not trusted: self-signed certificate (code 18)")
        )
    }

    @Test func rejectsWithTheVerifiersReasonWhenTheChainDoesNotEndAtAPin() {
        let verifier = TrustFixtures.verifier { _ in
            SecurityError(.verificationFailed, reason: "unable to get local issuer certificate", libraryCode: 20)
        }
        let evaluator = PinnedCertificatesTrustEvaluator(pinnedCertificates: [TrustFixtures.stranger])

        #expect(
            evaluator.evaluate(TrustFixtures.trust(verifier: verifier))
                == .reject(
                    reason:
                        "certificate chain does not verify against the pinned certificates: unable to get local issuer certificate"
                )
        )
    }

    @Test func rejectsEveryServerWithoutPinnedCertificates() {
        let verifier = TrustFixtures.verifier()
        let evaluator = PinnedCertificatesTrustEvaluator(pinnedCertificates: [])

        #expect(
            evaluator.evaluate(TrustFixtures.trust(verifier: verifier)) == .reject(reason: "no pinned certificates")
        )
        #expect(verifier.verifyCalls.isEmpty)
    }
}
