import CourierSecurity
import Foundation
import Testing

@Suite struct PublicKeyPinTests {
    private let text = "sha256//d3rc9cJBMdmXdd641OG6eVtd+2sCyeTjUGgoVKXbfyI="

    @Test func parsesAndPrintsTheCurlPinNotation() throws {
        let pin = try PublicKeyPin(text)

        #expect(pin.sha256Digest == Data(base64Encoded: "d3rc9cJBMdmXdd641OG6eVtd+2sCyeTjUGgoVKXbfyI="))
        #expect(pin.sha256Digest.count == 32)
        #expect("\(pin)" == text)
    }

    @Test(arguments: [
        ("sha1//d3rc9cJBMdmXdd641OG6eVtd+2sCyeTjUGgoVKXbfyI=", "a public-key pin starts with \"sha256//\""),
        ("sha256//not base64!", "a public-key pin's digest is not base64"),
        ("sha256//AAAA", "a SHA-256 pin has 32 bytes, not 3"),
    ])
    func rejectsMalformedPinsWithATypedError(input: String, reason: String) {
        #expect {
            try PublicKeyPin(input)
        } throws: { error in
            guard let error = error as? SecurityError else { return false }
            return error.code == .invalidPin && error.reason.hasPrefix(reason)
        }
    }

    @Test func pinsACertificatesKeyThroughTheVerifier() throws {
        let verifier = TrustFixtures.verifier()

        let pin = try PublicKeyPin(certificate: TrustFixtures.leaf, using: verifier)

        #expect(pin.sha256Digest == verifier.sha256(TrustFixtures.leafKey))
        #expect(throws: SecurityError.self) {
            try PublicKeyPin(certificate: Certificate(derBytes: Data([1])), using: verifier)
        }
    }
}
