import CourierSecurity
import Testing

@Suite struct DefaultTrustEvaluatorTests {
    @Test func acceptsATrustedChainWhoseLeafNamesTheHost() {
        #expect(DefaultTrustEvaluator().evaluate(TrustFixtures.trust()) == .accept)
    }

    @Test func rejectsAnUntrustedChainWithTheVerifiersReasonAndCode() {
        let trust = TrustFixtures.trust(chain: TrustFixtures.selfSigned)

        #expect(
            DefaultTrustEvaluator().evaluate(trust)
                == .reject(reason: "certificate chain is not trusted: self-signed certificate (code 18)")
        )
        #expect(
            DefaultTrustEvaluator(validatesHost: false).evaluate(trust)
                == .reject(reason: "certificate chain is not trusted: self-signed certificate (code 18)")
        )
    }

    @Test func rejectsAHostMismatchOnlyWhileValidatingTheHost() {
        let trust = TrustFixtures.trust(host: "other.test", hostVerdict: .mismatch)

        #expect(
            DefaultTrustEvaluator().evaluate(trust) == .reject(reason: "certificate is not valid for host other.test")
        )
        #expect(DefaultTrustEvaluator(validatesHost: false).evaluate(trust) == .accept)
    }

    @Test func acceptsWithoutAHostLikeAFNetworkingWithoutADomain() {
        let trust = TrustFixtures.trust(host: nil, hostVerdict: .notChecked)

        #expect(DefaultTrustEvaluator().evaluate(trust) == .accept)
        #expect(trust.hostIsAcceptable)
    }
}

@Suite struct TrivialTrustEvaluatorTests {
    @Test func acceptAllAcceptsAnUntrustedMismatchedServer() {
        let trust = TrustFixtures.trust(chain: TrustFixtures.selfSigned, hostVerdict: .mismatch)

        #expect(AcceptAllTrustEvaluator().evaluate(trust) == .accept)
    }

    @Test func rejectAllRejectsATrustedServerWithItsReason() {
        #expect(
            RejectAllTrustEvaluator().evaluate(TrustFixtures.trust())
                == .reject(reason: "every server is rejected by RejectAllTrustEvaluator")
        )
        #expect(
            RejectAllTrustEvaluator(reason: "no TLS here").evaluate(TrustFixtures.trust())
                == .reject(reason: "no TLS here")
        )
    }

    @Test func closureEvaluatorReturnsTheClosuresDecisionForTheGivenTrust() {
        let evaluator = ClosureTrustEvaluator { trust in
            trust.host == "api.test" ? .accept : .reject(reason: "host \(trust.host ?? "-")")
        }

        #expect(evaluator.evaluate(TrustFixtures.trust()) == .accept)
        #expect(evaluator.evaluate(TrustFixtures.trust(host: "x.test")) == .reject(reason: "host x.test"))
    }

    @Test func decisionsAndVerdictsDescribeThemselves() {
        #expect("\(TrustDecision.accept)" == "accept")
        #expect("\(TrustDecision.reject(reason: "pin"))" == "reject: pin")
        #expect("\(ChainVerdict.trusted)" == "trusted")
        #expect("\(TrustFixtures.selfSigned)" == "untrusted: self-signed certificate (code 18)")
        #expect("\(HostVerdict.notChecked)" == "notChecked")
        #expect(
            "\(SecurityError(.verificationFailed, reason: "hostname mismatch", libraryCode: 62))"
                == "verificationFailed (code 62): hostname mismatch"
        )
        #expect("\(SecurityError(.invalidPEM, reason: "empty"))" == "invalidPEM: empty")
        #expect("\(TrustFixtures.leaf)" == "Certificate(4 bytes)")
        #expect(TrustFixtures.trust().leaf == TrustFixtures.leaf)
    }
}
