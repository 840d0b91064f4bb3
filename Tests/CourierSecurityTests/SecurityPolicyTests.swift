import CourierSecurity
import Foundation
import Testing

/// AFNetworking's `evaluateServerTrust:forDomain:`, one test per step and branch, over fake
/// certificates whose verification outcomes and keys come from tables.
@Suite struct SecurityPolicyTests {
    typealias F = TrustFixtures

    static let hostMismatch = SecurityError(.verificationFailed, reason: "hostname mismatch", libraryCode: 62)
    static let expired = SecurityError(.verificationFailed, reason: "certificate has expired", libraryCode: 10)

    func policy(
        _ mode: PinningMode,
        pinned: [Certificate] = [],
        allowInvalid: Bool = false,
        validatesDomainName: Bool = true,
        unsafe: Bool = false,
        verifier: FakeCertificateVerifier = F.verifier()
    ) -> SecurityPolicy {
        var policy = SecurityPolicy(pinningMode: mode, pinnedCertificates: pinned, verifier: verifier)
        policy.allowInvalidCertificates = allowInvalid
        policy.validatesDomainName = validatesDomainName
        policy.unsafeAFNetworkingPublicKeyPinning = unsafe
        return policy
    }

    // MARK: Configuration

    @Test func defaultPolicyIsModeNoneStrictWithDomainValidationAndNothingPinned() {
        let policy = SecurityPolicy.defaultPolicy(verifier: F.verifier())
        #expect(policy.pinningMode == .none)
        #expect(!policy.allowInvalidCertificates)
        #expect(policy.validatesDomainName)
        #expect(!policy.unsafeAFNetworkingPublicKeyPinning)
        #expect(policy.pinnedCertificates.isEmpty)
        #expect(policy.pinnedPublicKeys.isEmpty)
        #expect(PinningMode.allCases.map(\.rawValue) == [0, 1, 2])
    }

    @Test func pinnedCertificatesDeriveTheirKeysSkippingUnparseableOnes() {
        let garbage = Certificate(derBytes: Data("not a certificate".utf8))
        var policy = policy(.publicKey, pinned: [F.leaf, garbage, F.root])
        #expect(policy.pinnedCertificates == [F.leaf, garbage, F.root])
        #expect(policy.pinnedPublicKeys == [F.pin(F.leafKey), F.pin(F.rootKey)])

        policy.pinnedCertificates = [F.intermediate]
        #expect(policy.pinnedPublicKeys == [F.pin(F.intermediateKey)])
        policy.pinnedCertificates = []
        #expect(policy.pinnedPublicKeys.isEmpty)
    }

    // MARK: Step 1: the self-signed-domain guard

    @Test(arguments: [PinningMode.none, .certificate, .publicKey])
    func refusesToValidateADomainOnAnAllowedInvalidCertificateWithoutPins(mode: PinningMode) {
        let verifier = F.verifier()
        let pinned = mode == .none ? [F.leaf] : []
        let decision = policy(mode, pinned: pinned, allowInvalid: true, verifier: verifier).evaluate(F.trust())
        #expect(
            decision
                == .reject(
                    reason: "In order to validate a domain name for self signed certificates, you MUST use pinning."
                )
        )
        #expect(verifier.verifyCalls.isEmpty)
    }

    @Test func theGuardNeedsADomainAndDomainValidation() {
        let untrusted = F.trust(chain: F.selfSigned, hostVerdict: .mismatch)
        #expect(policy(.none, allowInvalid: true).evaluate(F.trust(host: nil, chain: F.selfSigned)) == .accept)
        #expect(policy(.none, allowInvalid: true, validatesDomainName: false).evaluate(untrusted) == .accept)
    }

    // MARK: Steps 2 and 3: no pinning

    @Test func modeNoneAcceptsWhatTheCAStoreTrustsForTheHost() {
        #expect(policy(.none).evaluate(F.trust()) == .accept)
        #expect(
            policy(.none).evaluate(F.trust(chain: F.selfSigned))
                == .reject(reason: "certificate chain is not trusted: self-signed certificate (code 18)")
        )
        #expect(
            policy(.none).evaluate(F.trust(hostVerdict: .mismatch))
                == .reject(reason: "certificate is not valid for host api.test")
        )
    }

    @Test func withoutDomainValidationTheHostIsNotChecked() {
        #expect(policy(.none, validatesDomainName: false).evaluate(F.trust(hostVerdict: .mismatch)) == .accept)
        #expect(policy(.none).evaluate(F.trust(host: nil, hostVerdict: .notChecked)) == .accept)
        #expect(!policy(.none, validatesDomainName: false).evaluate(F.trust(chain: F.selfSigned)).isAccepted)
    }

    @Test func modeNoneWithInvalidCertificatesAllowedAcceptsAnything() {
        let anything = F.trust(chain: F.selfSigned, hostVerdict: .mismatch)
        #expect(policy(.none, allowInvalid: true, validatesDomainName: false).evaluate(anything) == .accept)
    }

    // MARK: Step 4: pinning needs a valid trust unless invalid certificates are allowed

    @Test(arguments: [PinningMode.certificate, .publicKey])
    func pinningRejectsAnInvalidTrustBeforeLookingAtPins(mode: PinningMode) {
        let verifier = F.verifier()
        let pinned = policy(mode, pinned: [F.leaf], verifier: verifier)
        #expect(
            pinned.evaluate(F.trust(chain: F.selfSigned))
                == .reject(reason: "certificate chain is not trusted: self-signed certificate (code 18)")
        )
        #expect(
            pinned.evaluate(F.trust(hostVerdict: .mismatch))
                == .reject(reason: "certificate is not valid for host api.test")
        )
        #expect(verifier.verifyCalls.isEmpty)
        #expect(verifier.keyReadCertificates == [F.leaf])  // only when the pin was set
    }

    // MARK: Step 5: certificate pinning

    @Test func certificateModeVerifiesThePresentedChainWithOnlyThePinsAsAnchorsAndTheHost() {
        let verifier = F.verifier()
        let decision = policy(.certificate, pinned: [F.root], verifier: verifier).evaluate(F.trust())
        #expect(decision == .accept)
        #expect(
            verifier.verifyCalls == [
                .init(chain: [F.leaf, F.intermediate], anchors: [F.root], host: "api.test", time: nil)
            ]
        )
    }

    @Test func certificateModeRejectsAChainThatDoesNotEndAtAPin() {
        let verifier = F.verifier { _ in
            SecurityError(.verificationFailed, reason: "unable to get local issuer certificate", libraryCode: 20)
        }
        #expect(
            policy(.certificate, pinned: [F.stranger], verifier: verifier).evaluate(F.trust())
                == .reject(
                    reason:
                        "certificate chain does not verify against the pinned certificates: unable to get local issuer certificate"
                )
        )
    }

    @Test func certificateModeWithInvalidCertificatesAllowedStillChecksTheHostOnThePinnedChain() {
        // AFNetworking's re-evaluation keeps the SSL policy's host: a pinned self-signed certificate for
        // another name fails even with invalid certificates allowed.
        let verifier = F.verifier { $0.host == "api.test" ? Self.hostMismatch : nil }
        let pinned = policy(.certificate, pinned: [F.leaf], allowInvalid: true, verifier: verifier)
        let untrusted = F.trust(chain: F.selfSigned, hostVerdict: .mismatch)
        #expect(
            pinned.evaluate(untrusted)
                == .reject(
                    reason: "certificate chain does not verify against the pinned certificates: hostname mismatch"
                )
        )
        let lenient = policy(
            .certificate,
            pinned: [F.leaf],
            allowInvalid: true,
            validatesDomainName: false,
            verifier: verifier
        )
        #expect(lenient.evaluate(untrusted) == .accept)
        #expect(verifier.verifyCalls.map(\.host) == ["api.test", nil])
    }

    // MARK: Step 6: public-key pinning

    @Test func publicKeyModeAcceptsAPinnedKeyAnywhereInThePresentedOrVerifiedChain() {
        #expect(policy(.publicKey, pinned: [F.leaf]).evaluate(F.trust()) == .accept)
        #expect(policy(.publicKey, pinned: [F.intermediate]).evaluate(F.trust()) == .accept)
        let rootOnlyVerified = F.trust(verifiedChain: [F.leaf, F.intermediate, F.root])
        #expect(policy(.publicKey, pinned: [F.root]).evaluate(rootOnlyVerified) == .accept)
        #expect(
            policy(.publicKey, pinned: [F.root]).evaluate(F.trust())
                == .reject(reason: "no certificate in the chain has a pinned public key")
        )
    }

    @Test func publicKeyModeSkipsChainCertificatesWhoseKeyCannotBeRead() {
        let garbage = Certificate(derBytes: Data("garbage".utf8))
        let trust = F.trust(certificates: [garbage, F.intermediate])
        #expect(policy(.publicKey, pinned: [F.intermediate]).evaluate(trust) == .accept)
    }

    @Test func publicKeyModeWithValidTrustDoesNotVerifyAgain() {
        let verifier = F.verifier()
        #expect(policy(.publicKey, pinned: [F.leaf], verifier: verifier).evaluate(F.trust()) == .accept)
        #expect(verifier.verifyCalls.isEmpty)
    }

    @Test func publicKeyModeWithInvalidCertificatesAllowedVerifiesUpToTheKeysCertificateAndTheHost() {
        let verifier = F.verifier()
        let pinned = policy(.publicKey, pinned: [F.intermediate], allowInvalid: true, verifier: verifier)
        #expect(pinned.evaluate(F.trust(chain: F.selfSigned)) == .accept)
        #expect(
            verifier.verifyCalls == [
                .init(chain: [F.leaf, F.intermediate], anchors: [F.intermediate], host: "api.test", time: nil)
            ]
        )
    }

    @Test func publicKeyModeWithInvalidCertificatesAllowedRejectsAWrongHostOrAnExpiredChainByDefault() {
        let wrongHost = F.verifier { $0.host == nil ? nil : Self.hostMismatch }
        let trust = F.trust(chain: F.selfSigned, hostVerdict: .mismatch)
        #expect(
            policy(.publicKey, pinned: [F.leaf], allowInvalid: true, verifier: wrongHost).evaluate(trust)
                == .reject(
                    reason:
                        "certificate chain does not verify up to the certificate with the pinned key: hostname mismatch"
                )
        )
        let lenient = policy(
            .publicKey,
            pinned: [F.leaf],
            allowInvalid: true,
            validatesDomainName: false,
            verifier: wrongHost
        )
        #expect(lenient.evaluate(trust) == .accept)

        let expired = F.verifier { _ in Self.expired }
        #expect(
            policy(.publicKey, pinned: [F.leaf], allowInvalid: true, validatesDomainName: false, verifier: expired)
                .evaluate(trust)
                == .reject(
                    reason:
                        "certificate chain does not verify up to the certificate with the pinned key: certificate has expired"
                )
        )
    }

    @Test func theCompatibilitySwitchRestoresAFNetworkingsUncheckedPublicKeyPinning() {
        let failing = F.verifier { _ in Self.expired }
        let legacy = policy(.publicKey, pinned: [F.leaf], allowInvalid: true, unsafe: true, verifier: failing)
        let trust = F.trust(chain: F.selfSigned, hostVerdict: .mismatch)
        #expect(legacy.evaluate(trust) == .accept)
        #expect(failing.verifyCalls.isEmpty)
        // The switch opens nothing else: the key must still match, and strict policies stay strict.
        #expect(!policy(.publicKey, pinned: [F.stranger], allowInvalid: true, unsafe: true).evaluate(trust).isAccepted)
        #expect(!policy(.publicKey, pinned: [F.leaf], unsafe: true).evaluate(trust).isAccepted)
        #expect(
            !policy(.certificate, pinned: [F.leaf], allowInvalid: true, unsafe: true, verifier: failing).evaluate(trust)
                .isAccepted
        )
    }
}
