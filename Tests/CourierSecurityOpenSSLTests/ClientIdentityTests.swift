import CourierSecurity
import CourierSecurityOpenSSL
import Foundation
import Testing

/// Client identities loaded and checked before any connection, from the test PKI's leaf in every
/// form (`ci/make-test-pki`; passphrase `courier-test`).
@Suite struct ClientIdentityTests {
    static let passphrase = "courier-test"
    static let leafPEM = PKIFixtures.text("leaf.pem")
    /// Inside the leaf's validity (2025–2125).
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func check(_ identity: ClientIdentity, chainLength: Int) throws {
        let chain = String(decoding: identity.certificateChainPEM, as: UTF8.self)
        #expect(chain.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1 == chainLength)
        #expect(chain.hasPrefix(Self.leafPEM), "the leaf comes first")
        let key = String(decoding: identity.privateKeyPEM, as: UTF8.self)
        #expect(key.hasPrefix("-----BEGIN PRIVATE KEY-----"), "an unencrypted PKCS#8 key for libcurl")
        #expect(identity.subject.contains("CN="))
        #expect(!identity.description.contains("PRIVATE KEY"), "the description never shows the key")
        // The same key whatever form it came in: compare with the plain PEM key's re-encoding.
        let plain = try ClientIdentity.load(
            certificateAt: PKIFixtures.path("leaf.pem"),
            keyAt: PKIFixtures.path("leaf.key"),
            checkedAt: Self.now
        )
        #expect(identity.privateKeyPEM == plain.privateKeyPEM)
    }

    @Test func everyFormLoadsToTheSameIdentity() throws {
        func path(_ name: String) -> String { PKIFixtures.path(name) }
        try check(
            ClientIdentity.load(certificateAt: path("leaf.pem"), keyAt: path("leaf.key"), checkedAt: Self.now),
            chainLength: 1
        )
        try check(
            ClientIdentity.load(
                certificateAt: path("leaf.pem"),
                keyAt: path("leaf-encrypted.key"),
                passphrase: Self.passphrase,
                checkedAt: Self.now
            ),
            chainLength: 1
        )
        try check(
            ClientIdentity.load(certificateAt: path("leaf.der"), keyAt: path("leaf.key.der"), checkedAt: Self.now),
            chainLength: 1
        )
        try check(
            ClientIdentity.load(
                certificateAt: path("leaf.der"),
                keyAt: path("leaf-encrypted.key.der"),
                passphrase: Self.passphrase,
                checkedAt: Self.now
            ),
            chainLength: 1
        )
        try check(ClientIdentity.load(certificateAt: path("leaf-identity.pem"), checkedAt: Self.now), chainLength: 2)
        try check(
            ClientIdentity.load(pkcs12At: path("leaf.p12"), passphrase: Self.passphrase, checkedAt: Self.now),
            chainLength: 2
        )
    }

    func code(_ load: () throws(SecurityError) -> ClientIdentity) -> SecurityError.Code? {
        do {
            _ = try load()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func eachProblemIsATypedErrorAtLoadTime() {
        func path(_ name: String) -> String { PKIFixtures.path(name) }
        let leaf = path("leaf.pem")
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(certificateAt: leaf, keyAt: path("leaf-encrypted.key"), passphrase: "wrong")
            } == .wrongPassphrase
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(certificateAt: leaf, keyAt: path("leaf-encrypted.key"))
            } == .wrongPassphrase,
            "no passphrase for an encrypted key: an error, never a prompt"
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(certificateAt: leaf, keyAt: path("leaf-encrypted.key.der"), passphrase: "wrong")
            } == .wrongPassphrase
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(pkcs12At: path("leaf.p12"), passphrase: "wrong")
            } == .wrongPassphrase
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(certificateAt: leaf, keyAt: path("self-signed.key"), checkedAt: Self.now)
            } == .keyDoesNotMatchCertificate
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(
                    certificateAt: leaf,
                    keyAt: path("leaf.key"),
                    checkedAt: Date(timeIntervalSince1970: 7_000_000_000)
                )
            } == .certificateExpired
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(
                    certificateAt: leaf,
                    keyAt: path("leaf.key"),
                    checkedAt: Date(timeIntervalSince1970: 0)
                )
            } == .certificateNotYetValid
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(certificateAt: leaf, keyAt: leaf)
            } == .invalidPrivateKey
        )
        #expect(
            code { () throws(SecurityError) in try ClientIdentity.load(certificateAt: leaf) } == .invalidPrivateKey,
            "a certificate file without a key and no key file"
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(certificate: Data("not a certificate".utf8), key: nil)
            } == .invalidCertificate
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(pkcs12At: path("leaf.pem"), passphrase: nil)
            } == .invalidPKCS12
        )
        #expect(
            code { () throws(SecurityError) in
                try ClientIdentity.load(certificateAt: path("missing.pem"), keyAt: nil)
            } == .unreadableFile
        )
    }
}
