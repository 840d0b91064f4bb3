import CourierSecurity
import CourierSecurityOpenSSL
import Foundation
import Testing

@Suite struct OpenSSLCertificateVerifierTests {
    private let verifier = OpenSSLCertificateVerifier()

    private func verificationError(
        _ chain: [Certificate],
        anchors: [Certificate],
        host: String? = nil,
        at time: Date? = nil
    ) -> SecurityError? {
        do {
            try verifier.verify(chain, anchors: anchors, host: host, at: time)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Anchors

    @Test func verifiesTheLeafThroughThePresentedIntermediateToTheRootAnchor() {
        #expect(verificationError([PKIFixtures.leaf, PKIFixtures.intermediate], anchors: [PKIFixtures.root]) == nil)
    }

    @Test func acceptsAnIntermediateOrTheLeafItselfAsAnchorBecausePartialChainsAreAllowed() {
        #expect(verificationError([PKIFixtures.leaf], anchors: [PKIFixtures.intermediate]) == nil)
        #expect(verificationError([PKIFixtures.leaf, PKIFixtures.intermediate], anchors: [PKIFixtures.leaf]) == nil)
        #expect(verificationError([PKIFixtures.selfSigned], anchors: [PKIFixtures.selfSigned]) == nil)
    }

    @Test func failsAgainstAnotherAnchorWithOpenSSLsReasonAndCode() {
        let expected = SecurityError(
            .verificationFailed,
            reason: "unable to get local issuer certificate",
            libraryCode: 20
        )

        #expect(
            verificationError([PKIFixtures.leaf, PKIFixtures.intermediate], anchors: [PKIFixtures.selfSigned])
                == expected
        )
        // The root alone cannot reach a leaf whose intermediate was not presented.
        #expect(verificationError([PKIFixtures.leaf], anchors: [PKIFixtures.root]) == expected)
        #expect(verificationError([PKIFixtures.leaf, PKIFixtures.intermediate], anchors: []) == expected)
    }

    @Test func reportsASelfSignedLeafThatIsNotAnAnchor() {
        #expect(
            verificationError([PKIFixtures.selfSigned], anchors: [PKIFixtures.root])
                == SecurityError(.verificationFailed, reason: "self-signed certificate", libraryCode: 18)
        )
    }

    // MARK: Host names

    @Test(arguments: ["localhost", "api.test", "API.Test", "127.0.0.1", "::1", "[::1]"])
    func acceptsEveryNameAndAddressOfTheLeaf(host: String) {
        #expect(
            verificationError([PKIFixtures.leaf, PKIFixtures.intermediate], anchors: [PKIFixtures.root], host: host)
                == nil
        )
    }

    @Test func rejectsAnotherNameOrAddressWithTheMismatchCode() {
        let chain = [PKIFixtures.leaf, PKIFixtures.intermediate]

        #expect(
            verificationError(chain, anchors: [PKIFixtures.root], host: "other.test")
                == SecurityError(.verificationFailed, reason: "hostname mismatch", libraryCode: 62)
        )
        #expect(
            verificationError(chain, anchors: [PKIFixtures.root], host: "10.0.0.1")
                == SecurityError(.verificationFailed, reason: "IP address mismatch", libraryCode: 64)
        )
        // A wildcard-free certificate does not match a sub-domain, and an IP is not a DNS name.
        #expect(verificationError(chain, anchors: [PKIFixtures.root], host: "a.api.test")?.libraryCode == 62)
        #expect(
            verificationError(
                [PKIFixtures.otherName, PKIFixtures.intermediate],
                anchors: [PKIFixtures.root],
                host: "localhost"
            )?
            .libraryCode == 62
        )
        #expect(
            verificationError(
                [PKIFixtures.otherName, PKIFixtures.intermediate],
                anchors: [PKIFixtures.root],
                host: "other.test"
            )
                == nil
        )
    }

    // MARK: Time

    @Test func reportsAnExpiredCertificateNowAndAcceptsItInsideItsValidity() {
        let chain = [PKIFixtures.expired, PKIFixtures.intermediate]

        #expect(
            verificationError(chain, anchors: [PKIFixtures.root])
                == SecurityError(.verificationFailed, reason: "certificate has expired", libraryCode: 10)
        )
        #expect(
            verificationError(chain, anchors: [PKIFixtures.root], at: Date(timeIntervalSince1970: 1_590_969_600)) == nil
        )
        #expect(
            verificationError(chain, anchors: [PKIFixtures.root], at: Date(timeIntervalSince1970: 1_559_347_200))
                == SecurityError(.verificationFailed, reason: "certificate is not yet valid", libraryCode: 9)
        )
    }

    // MARK: Malformed input

    @Test func rejectsBytesThatAreNotACertificateWithTheirPosition() {
        let garbage = Certificate(derBytes: Data("garbage".utf8))
        let trailing = Certificate(derBytes: PKIFixtures.leaf.derBytes + Data([0]))

        #expect(
            verificationError([PKIFixtures.leaf, garbage], anchors: [PKIFixtures.root])
                == SecurityError(.invalidCertificate, reason: "certificate 1 is not DER X.509 (7 bytes)")
        )
        #expect(verificationError([trailing], anchors: [PKIFixtures.root])?.code == .invalidCertificate)
        #expect(
            verificationError([PKIFixtures.leaf], anchors: [Certificate(derBytes: Data())])?.code == .invalidCertificate
        )
        #expect(
            verificationError([], anchors: [PKIFixtures.root])
                == SecurityError(.invalidCertificate, reason: "the chain to verify is empty")
        )
        #expect(throws: SecurityError(.invalidCertificate, reason: "certificate is not DER X.509 (7 bytes)")) {
            try verifier.subjectPublicKeyInfo(of: garbage)
        }
        #expect(throws: SecurityError.self) { try verifier.info(of: garbage) }
    }

    // MARK: Keys

    @Test(arguments: ["leaf", "self-signed", "root-ca"])
    func extractsTheSubjectPublicKeyInfoTheOpenSSLCommandLinePrints(name: String) throws {
        let spki = try verifier.subjectPublicKeyInfo(of: PKIFixtures.certificate(name))

        #expect(spki == PKIFixtures.data("\(name).spki.der"))
        #expect(spki.count == 91)  // P-256
        #expect(verifier.sha256(spki).base64EncodedString() == PKIFixtures.text("\(name).spki.sha256"))
        #expect(
            try verifier.publicKeyPin(of: PKIFixtures.certificate(name)) == "sha256//"
                + PKIFixtures.text("\(name).spki.sha256")
        )
    }

    @Test func computesSHA256TestVectors() {
        let hex = { (data: Data) in data.map { String(format: "%02x", $0) }.joined() }

        #expect(hex(verifier.sha256(Data())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex(verifier.sha256(Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
    }

    // MARK: PEM

    @Test func parsesEveryCertificateOfAPEMBundleInOrder() throws {
        let certificates = try verifier.certificates(fromPEM: PKIFixtures.data("leaf-chain.pem"))

        #expect(certificates == [PKIFixtures.leaf, PKIFixtures.intermediate])
        #expect(try verifier.certificates(fromPEM: PKIFixtures.text("root-ca.pem")) == [PKIFixtures.root])
    }

    @Test func skipsKeyBlocksBetweenCertificates() throws {
        let mixed = PKIFixtures.data("leaf.key") + PKIFixtures.data("leaf.pem") + PKIFixtures.data("leaf.key")

        #expect(try verifier.certificates(fromPEM: mixed) == [PKIFixtures.leaf])
    }

    @Test func rejectsTextWithoutCertificates() {
        #expect(throws: SecurityError(.invalidPEM, reason: "the PEM text is empty")) {
            try verifier.certificates(fromPEM: Data())
        }
        #expect(throws: SecurityError(.invalidPEM, reason: "no certificate in the PEM text")) {
            try verifier.certificates(fromPEM: "garbage, not PEM\n")
        }
        #expect(throws: SecurityError(.invalidPEM, reason: "no certificate in the PEM text")) {
            try verifier.certificates(fromPEM: PKIFixtures.data("leaf.key"))
        }
    }

    @Test func rejectsATruncatedOrCorruptBlockNamingWhichOne() throws {
        let pem = PKIFixtures.text("leaf.pem")
        let truncated = String(pem.prefix(pem.count / 2))
        let corrupt = pem.replacingOccurrences(of: "MII", with: "M!I")

        for (text, position) in [(truncated, 0), (corrupt, 0), (PKIFixtures.text("root-ca.pem") + "\n" + truncated, 1)]
        {
            #expect {
                try verifier.certificates(fromPEM: text)
            } throws: { error in
                guard let error = error as? SecurityError else { return false }
                print("PEM error: \(error)")
                return error.code == .invalidPEM
                    && error.reason.hasPrefix("certificate \(position) in the PEM text is invalid: ")
            }
        }
    }

    // MARK: Information

    @Test func readsNamesDatesAndAlternativeNames() throws {
        let info = try verifier.info(of: PKIFixtures.leaf)

        #expect(
            info
                == CertificateInfo(
                    subjectCommonName: "localhost",
                    issuerCommonName: "Courier Test Intermediate CA",
                    notBefore: Date(timeIntervalSince1970: 1_735_689_600),
                    notAfter: Date(timeIntervalSince1970: 4_891_363_200),
                    dnsNames: ["localhost", "api.test"],
                    ipAddresses: ["127.0.0.1", "::1"]
                )
        )
        let expired = try verifier.info(of: PKIFixtures.expired)
        #expect(expired.notBefore == Date(timeIntervalSince1970: 1_577_836_800))
        #expect(expired.notAfter == Date(timeIntervalSince1970: 1_609_459_200))
        #expect(try verifier.info(of: PKIFixtures.root).dnsNames == [])
    }
}
