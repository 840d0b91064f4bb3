import CourierSecurity
import CourierSecurityOpenSSL
import Foundation
import Testing

/// `SecurityPolicy` over the fixture PKI with the real verifier: the verdicts are those the transport
/// would report with the fixture root as its CA store.
@Suite struct SecurityPolicyFixtureTests {
    static let verifier = OpenSSLCertificateVerifier()
    static let untrustedRoot = ChainVerdict.untrusted(reason: "unable to get local issuer certificate", code: 20)
    static let selfSignedVerdict = ChainVerdict.untrusted(reason: "self-signed certificate", code: 18)
    static let expiredVerdict = ChainVerdict.untrusted(reason: "certificate has expired", code: 10)

    func policy(
        _ mode: PinningMode,
        _ pinned: [Certificate],
        allowInvalid: Bool = false,
        validatesDomainName: Bool = true,
        unsafe: Bool = false
    ) -> SecurityPolicy {
        var policy = SecurityPolicy(pinningMode: mode, pinnedCertificates: pinned, verifier: Self.verifier)
        policy.allowInvalidCertificates = allowInvalid
        policy.validatesDomainName = validatesDomainName
        policy.unsafeAFNetworkingPublicKeyPinning = unsafe
        return policy
    }

    func trust(
        _ certificates: [Certificate],
        host: String? = "api.test",
        chain: ChainVerdict = .trusted,
        hostVerdict: HostVerdict = .matches,
        verifiedChain: [Certificate] = []
    ) -> ServerTrust {
        ServerTrust(
            host: host,
            certificates: certificates,
            verifiedChain: verifiedChain,
            chainVerdict: chain,
            hostVerdict: hostVerdict,
            verifier: Self.verifier
        )
    }

    var leafChain: [Certificate] { [PKIFixtures.leaf, PKIFixtures.intermediate] }

    @Test func derivesThePinnedKeysThatOpenSSLPrints() throws {
        let policy = policy(
            .publicKey,
            [PKIFixtures.leaf, Certificate(derBytes: Data([0x30, 0x03, 0x02, 0x01, 0x01]))]
        )
        #expect(policy.pinnedPublicKeys == [try PublicKeyPin("sha256//" + PKIFixtures.text("leaf.spki.sha256"))])
        #expect(policy.pinnedCertificates.count == 2)
    }

    @Test(arguments: ["root-ca", "intermediate-ca", "leaf"])
    func certificateModeAcceptsAPinAnywhereOnThePath(name: String) {
        let pinned = policy(.certificate, [PKIFixtures.certificate(name)])
        #expect(pinned.evaluate(trust(leafChain, verifiedChain: leafChain + [PKIFixtures.root])) == .accept)
    }

    @Test func certificateModeRejectsAnUnrelatedPinWithOpenSSLsReason() {
        #expect(
            policy(.certificate, [PKIFixtures.selfSigned]).evaluate(trust(leafChain))
                == .reject(
                    reason:
                        "certificate chain does not verify against the pinned certificates: unable to get local issuer certificate"
                )
        )
    }

    @Test func certificateModeRejectsAnotherNameAndAnExpiredLeafEvenWithInvalidCertificatesAllowed() {
        let otherName = trust([PKIFixtures.otherName, PKIFixtures.intermediate], chain: Self.untrustedRoot)
        let lenient = policy(.certificate, [PKIFixtures.root], allowInvalid: true)
        #expect(
            lenient.evaluate(otherName)
                == .reject(
                    reason: "certificate chain does not verify against the pinned certificates: hostname mismatch"
                )
        )
        let expired = trust([PKIFixtures.expired, PKIFixtures.intermediate], chain: Self.expiredVerdict)
        let noDomain = policy(.certificate, [PKIFixtures.root], allowInvalid: true, validatesDomainName: false)
        #expect(noDomain.evaluate(otherName) == .accept)
        #expect(
            noDomain.evaluate(expired)
                == .reject(
                    reason: "certificate chain does not verify against the pinned certificates: certificate has expired"
                )
        )
    }

    @Test func aPinnedSelfSignedCertificateIsTrustedForItsOwnNamesOnly() {
        let lenient = policy(.certificate, [PKIFixtures.selfSigned], allowInvalid: true)
        let own = trust([PKIFixtures.selfSigned], host: "selfsigned.test", chain: Self.selfSignedVerdict)
        #expect(lenient.evaluate(own) == .accept)
        let foreign = trust([PKIFixtures.selfSigned], host: "api.test", chain: Self.selfSignedVerdict)
        #expect(!lenient.evaluate(foreign).isAccepted)
        // Without allowing invalid certificates, step 4 rejects what the CA store does not trust.
        #expect(
            policy(.certificate, [PKIFixtures.selfSigned]).evaluate(own)
                == .reject(reason: "certificate chain is not trusted: self-signed certificate (code 18)")
        )
    }

    @Test func publicKeyModeFindsTheRootKeyInTheVerifiedChain() {
        let pinned = policy(.publicKey, [PKIFixtures.root])
        #expect(pinned.evaluate(trust(leafChain, verifiedChain: leafChain + [PKIFixtures.root])) == .accept)
        #expect(
            pinned.evaluate(trust(leafChain))
                == .reject(reason: "no certificate in the chain has a pinned public key")
        )
    }

    @Test func publicKeyModeWithInvalidCertificatesAllowedChecksHostAndDatesUnlessTheSwitchIsSet() {
        let otherName = trust(
            [PKIFixtures.otherName, PKIFixtures.intermediate],
            chain: Self.untrustedRoot,
            hostVerdict: .mismatch
        )
        let expired = trust(
            [PKIFixtures.expired, PKIFixtures.intermediate],
            host: "expired.test",
            chain: Self.expiredVerdict
        )
        let safe = policy(.publicKey, [PKIFixtures.intermediate], allowInvalid: true)
        #expect(
            safe.evaluate(otherName)
                == .reject(
                    reason:
                        "certificate chain does not verify up to the certificate with the pinned key: hostname mismatch"
                )
        )
        #expect(
            safe.evaluate(expired)
                == .reject(
                    reason:
                        "certificate chain does not verify up to the certificate with the pinned key: certificate has expired"
                )
        )
        #expect(safe.evaluate(trust(leafChain, chain: Self.untrustedRoot)) == .accept)

        let legacy = policy(.publicKey, [PKIFixtures.intermediate], allowInvalid: true, unsafe: true)
        #expect(legacy.evaluate(otherName) == .accept)
        #expect(legacy.evaluate(expired) == .accept)
    }

    @Test func thePolicyDecidesInsideAHandshakeBehindTheTrustHook() throws {
        // The client trusts no CA, so only the pin can make the server trusted.
        func handshake(pinning pinned: Certificate) throws -> InMemoryTLSHandshake.Outcome {
            let handshake = try InMemoryTLSHandshake(
                certificateChainFile: PKIFixtures.path("leaf-chain.pem"),
                keyFile: PKIFixtures.path("leaf.key"),
                clientAnchors: []
            )
            var policy = policy(.certificate, [pinned])
            policy.allowInvalidCertificates = true
            try OpenSSLTrustHook(evaluator: policy).install(
                on: UnsafeMutableRawPointer(handshake.clientContext),
                host: "api.test"
            )
            return try handshake.run()
        }

        let pinnedRoot = try handshake(pinning: PKIFixtures.root)
        #expect(pinnedRoot.clientHandshakeDone && pinnedRoot.serverHandshakeDone)
        #expect(pinnedRoot.applicationDataAtServer == Data("ping".utf8))

        let wrongPin = try handshake(pinning: PKIFixtures.selfSigned)
        #expect(!wrongPin.clientHandshakeDone)
        #expect(wrongPin.applicationDataAtServer.isEmpty)
    }
}
