import CourierSecurity
import Foundation
import Testing

@Suite struct PublicKeyPinningTrustEvaluatorTests {
    @Test func acceptsWhenAnyPresentedCertificateCarriesAPinnedKey() {
        let evaluator = PublicKeyPinningTrustEvaluator(pins: [TrustFixtures.pin(TrustFixtures.intermediateKey)])

        #expect(evaluator.evaluate(TrustFixtures.trust()) == .accept)
    }

    @Test func findsAPinnedRootKeyInTheVerifiedChainWhenTheServerDoesNotSendTheRoot() {
        let evaluator = PublicKeyPinningTrustEvaluator(pins: [TrustFixtures.pin(TrustFixtures.rootKey)])
        let withoutVerifiedChain = TrustFixtures.trust()
        let withVerifiedChain = TrustFixtures.trust(
            verifiedChain: [TrustFixtures.leaf, TrustFixtures.intermediate, TrustFixtures.root]
        )

        #expect(
            evaluator.evaluate(withoutVerifiedChain)
                == .reject(reason: "no certificate in the chain has a pinned public key")
        )
        #expect(evaluator.evaluate(withVerifiedChain) == .accept)
    }

    @Test func readsEachKeyOnceWhenTheVerifiedChainRepeatsThePresentedOne() {
        let verifier = TrustFixtures.verifier()
        let evaluator = PublicKeyPinningTrustEvaluator(pins: [TrustFixtures.pin(TrustFixtures.rootKey)])
        let trust = TrustFixtures.trust(
            verifiedChain: [TrustFixtures.leaf, TrustFixtures.intermediate, TrustFixtures.root],
            verifier: verifier
        )

        #expect(evaluator.evaluate(trust) == .accept)
        #expect(verifier.keyReadCertificates == [TrustFixtures.leaf, TrustFixtures.intermediate, TrustFixtures.root])
    }

    @Test func requiresTheDefaultChainVerdictUnlessToldOtherwise() {
        let pins = [TrustFixtures.pin(TrustFixtures.leafKey)]
        let untrusted = TrustFixtures.trust(chain: TrustFixtures.selfSigned)

        #expect(
            PublicKeyPinningTrustEvaluator(pins: pins).evaluate(untrusted)
                == .reject(reason: "certificate chain is not trusted: self-signed certificate (code 18)")
        )
        #expect(PublicKeyPinningTrustEvaluator(pins: pins, requiresDefaultTrust: false).evaluate(untrusted) == .accept)
    }

    // AFNetworking skips the host check in public-key mode when invalid certificates are allowed
    // (its discrepancy 14); here host validation stays on until it is turned off itself.
    @Test func checksTheHostEvenWhenTheDefaultChainVerdictIsNotRequired() {
        let pins = [TrustFixtures.pin(TrustFixtures.leafKey)]
        let mismatched = TrustFixtures.trust(
            host: "other.test",
            chain: TrustFixtures.selfSigned,
            hostVerdict: .mismatch
        )

        #expect(
            PublicKeyPinningTrustEvaluator(pins: pins, requiresDefaultTrust: false).evaluate(mismatched)
                == .reject(reason: "certificate is not valid for host other.test")
        )
        #expect(
            PublicKeyPinningTrustEvaluator(pins: pins, validatesHost: false, requiresDefaultTrust: false)
                .evaluate(mismatched) == .accept
        )
    }

    @Test func skipsCertificatesWhoseKeyCannotBeRead() {
        let unreadable = Certificate(derBytes: Data("garbage".utf8))
        let evaluator = PublicKeyPinningTrustEvaluator(pins: [TrustFixtures.pin(TrustFixtures.intermediateKey)])

        let trust = TrustFixtures.trust(certificates: [unreadable, TrustFixtures.intermediate])

        #expect(evaluator.evaluate(trust) == .accept)
    }

    @Test func rejectsAServerWithoutAPinnedKeyAndEveryServerWithoutPins() {
        let strangerOnly = PublicKeyPinningTrustEvaluator(pins: [TrustFixtures.pin(TrustFixtures.strangerKey)])
        let none = PublicKeyPinningTrustEvaluator(pins: [])

        #expect(
            strangerOnly.evaluate(TrustFixtures.trust())
                == .reject(reason: "no certificate in the chain has a pinned public key")
        )
        #expect(none.evaluate(TrustFixtures.trust()) == .reject(reason: "no pinned public keys"))
    }
}
