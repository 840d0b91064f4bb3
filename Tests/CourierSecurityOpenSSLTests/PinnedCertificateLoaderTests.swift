import CourierSecurity
import CourierSecurityOpenSSL
import Foundation
import Testing

@Suite struct PinnedCertificateLoaderTests {
    static let verifier = OpenSSLCertificateVerifier()

    /// A fresh directory of its own for each test, removed afterwards.
    func withDirectory(_ files: [String: Data], _ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appending(path: "courier-pins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, data) in files {
            try data.write(to: directory.appending(path: name))
        }
        try body(directory.path)
    }

    @Test func readsDERAsItsBytesAndPEMThroughTheVerifier() throws {
        let der = try PinnedCertificateLoader.certificates(from: PKIFixtures.data("leaf.der"), using: Self.verifier)
        #expect(der == [PKIFixtures.leaf])
        let pem = try PinnedCertificateLoader.certificates(
            from: PKIFixtures.data("leaf-chain.pem"),
            using: Self.verifier
        )
        #expect(pem == [PKIFixtures.leaf, PKIFixtures.intermediate])
        let file = try PinnedCertificateLoader.certificates(
            contentsOfFile: PKIFixtures.path("root-ca.pem"),
            using: Self.verifier
        )
        #expect(file == [PKIFixtures.root])
    }

    @Test func reportsEmptyDataBadPEMAndAMissingFile() {
        #expect(throws: SecurityError(.invalidCertificate, reason: "no certificate bytes")) {
            try PinnedCertificateLoader.certificates(from: Data(), using: Self.verifier)
        }
        #expect {
            try PinnedCertificateLoader.certificates(
                from: Data("-----BEGIN CERTIFICATE-----\nAAAA\n".utf8),
                using: Self.verifier
            )
        } throws: { ($0 as? SecurityError)?.code == .invalidPEM }
        #expect {
            try PinnedCertificateLoader.certificates(contentsOfFile: "/nonexistent/pin.der", using: Self.verifier)
        } throws: { ($0 as? SecurityError)?.code == .unreadableFile }
    }

    @Test func readsEveryCertificateFileOfADirectoryInNameOrderAndListsWhatItSkips() throws {
        let files = [
            "b-root.PEM": PKIFixtures.data("root-ca.pem"),
            "a-leaf.cer": PKIFixtures.data("leaf.der"),
            "c-chain.crt": PKIFixtures.data("leaf-chain.pem"),
            "d-self.der": PKIFixtures.data("self-signed.der"),
            "e-broken.pem": Data("-----BEGIN CERTIFICATE-----\nnot base64\n".utf8),
            "f-empty.cer": Data(),
            "notes.txt": PKIFixtures.data("other-name.der"),
            "leaf.key": PKIFixtures.data("leaf.key"),
        ]
        try withDirectory(files) { directory in
            let contents = try PinnedCertificateLoader.certificates(inDirectory: directory, using: Self.verifier)
            #expect(
                contents.certificates == [
                    PKIFixtures.leaf, PKIFixtures.root, PKIFixtures.leaf, PKIFixtures.intermediate,
                    PKIFixtures.selfSigned,
                ]
            )
            #expect(
                contents.skipped.map { URL(filePath: $0.path).lastPathComponent } == ["e-broken.pem", "f-empty.cer"]
            )
            #expect(contents.skipped.last?.reason == "invalidCertificate: no certificate bytes")

            let policy = try SecurityPolicy(
                pinningMode: .publicKey,
                certificatesInDirectory: directory,
                verifier: Self.verifier
            )
            #expect(policy.pinnedCertificates.count == 4)
            #expect(policy.pinnedPublicKeys.count == 4)
        }
    }

    @Test func aDERFileThatIsNotACertificateIsPinnedAsBytesWithoutAKey() throws {
        try withDirectory(["junk.der": Data("junk".utf8), "root.der": PKIFixtures.data("root-ca.der")]) { directory in
            let policy = try SecurityPolicy(
                pinningMode: .publicKey,
                certificatesInDirectory: directory,
                verifier: Self.verifier
            )
            #expect(policy.pinnedCertificates == [Certificate(derBytes: Data("junk".utf8)), PKIFixtures.root])
            #expect(policy.pinnedPublicKeys == [try PublicKeyPin(certificate: PKIFixtures.root, using: Self.verifier)])
        }
    }

    @Test func aDirectoryThatCannotBeListedIsATypedError() {
        #expect {
            try PinnedCertificateLoader.certificates(inDirectory: "/nonexistent/pins", using: Self.verifier)
        } throws: { ($0 as? SecurityError)?.code == .unreadableFile }
    }
}
