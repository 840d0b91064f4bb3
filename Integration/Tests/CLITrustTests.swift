import Foundation
import Testing

/// `courier`'s trust and identity flags against the loopback nginx: public-key and certificate
/// pins, a client identity for the server that requires one, `--insecure`, and the errors that
/// come before any connection.
@Suite struct CLITrustTests {
    static var ready: Bool {
        CLIProcess.binary != nil && CurlTestServers.hasTLS && CurlTestServers.url("TEST_MTLS_REQUIRED_URL") != nil
    }

    func run(_ arguments: [String]) async throws -> CLIResult {
        try await CLIProcess.run(["--ignore-stdin"] + arguments)
    }

    /// The SPKI SHA-256 pin of a PEM certificate, from the openssl CLI.
    func pin(of certificate: String) async throws -> String {
        let spki = try await runHelperProcess(
            "/bin/sh",
            [
                "-c",
                "openssl x509 -in '\(certificate)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64",
            ]
        )
        return "sha256//" + spki.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(.enabled(if: ready, "needs the courier binary, TLS servers and TEST_MTLS_REQUIRED_URL"))
    func pinsAcceptTheServerAndRejectAnother() async throws {
        let url = try #require(CurlTestServers.https).adding("/small").absoluteString
        let ca = try #require(CurlTestServers.caFile)
        let serverCertificate = try #require(CurlTestServers.value("TEST_SERVER_CERT"))
        let other = try #require(CurlTestServers.value("TEST_OTHER_CA_FILE"))

        let pinned = try await run(["--cacert", ca, "--pin-key", try await pin(of: serverCertificate), url])
        #expect(pinned.status == 0, "\(pinned.standardError)")
        let wrongKey = try await run(["--cacert", ca, "--pin-key", try await pin(of: other), url])
        #expect(wrongKey.status == 1)
        #expect(wrongKey.standardError.contains("certificate"), "\(wrongKey.standardError)")

        let byCertificate = try await run(["--cacert", ca, "--pin-cert", ca, url])
        #expect(byCertificate.status == 0, "\(byCertificate.standardError)")
        let wrongCertificate = try await run(["--cacert", ca, "--pin-cert", other, url])
        #expect(wrongCertificate.status == 1)

        // Without --cacert the test CA is unknown: refused, unless --insecure.
        let untrusted = try await run([url])
        #expect(untrusted.status == 1)
        let insecure = try await run(["--insecure", url])
        #expect(insecure.status == 0, "\(insecure.standardError)")
        let conflict = try await run(["--insecure", "--pin-cert", ca, url])
        #expect(conflict.status == 1)
        #expect(conflict.standardError.contains("conflict"))
    }

    @Test(.enabled(if: ready, "needs the courier binary, TLS servers and TEST_MTLS_REQUIRED_URL"))
    func aClientIdentityIsPresentedAndItsProblemsStopBeforeConnecting() async throws {
        let url = try #require(CurlTestServers.url("TEST_MTLS_REQUIRED_URL")).adding("/client-cert").absoluteString
        let ca = try #require(CurlTestServers.caFile)
        let certificate = try #require(CurlTestServers.value("TEST_CLIENT_CERT"))
        let encryptedKey = try #require(CurlTestServers.value("TEST_CLIENT_KEY_ENCRYPTED"))
        let bundle = try #require(CurlTestServers.value("TEST_CLIENT_P12"))

        let withKey = try await run([
            "--cacert", ca, "--cert", certificate, "--key", encryptedKey, "--pass", "courier-test", url,
        ])
        #expect(withKey.status == 0, "\(withKey.standardError)")
        #expect(withKey.outputText.hasPrefix("SUCCESS "), "\(withKey.outputText)")
        let withBundle = try await run(["--cacert", ca, "--cert", bundle, "--pass", "courier-test", url])
        #expect(withBundle.outputText.hasPrefix("SUCCESS "), "\(withBundle.outputText)")

        let wrongPassphrase = try await run(["--cacert", ca, "--cert", bundle, "--pass", "nope", url])
        #expect(wrongPassphrase.status == 1)
        #expect(wrongPassphrase.standardError.contains("wrongPassphrase"), "\(wrongPassphrase.standardError)")
        let keyWithoutCertificate = try await run(["--cacert", ca, "--key", encryptedKey, url])
        #expect(keyWithoutCertificate.status == 1)
        #expect(keyWithoutCertificate.standardError.contains("--cert-key and --cert-key-pass go with --cert"))
    }

    static var stapling: URL? { CurlTestServers.url("TEST_STAPLING_URL") }

    @Test(
        .enabled(if: CLIProcess.binary != nil, "needs the courier binary"),
        .enabled(if: stapling != nil && CurlTestServers.value("TEST_PKI_DIR") != nil, "TEST_STAPLING_URL not set")
    )
    func revocationFlagsRefuseTheRevokedServerBeforeSending() async throws {
        // Without a name, the stapling port serves the revoked leaf (SAN 127.0.0.1) and staples "revoked".
        let url = try #require(Self.stapling).adding("/small").absoluteString
        let pki = try #require(CurlTestServers.value("TEST_PKI_DIR"))
        let root = ["--cacert", "\(pki)/root-ca.pem"]

        let plain = try await run(root + [url])
        #expect(plain.status == 0, "\(plain.standardError)")
        let stapled = try await run(root + ["--ocsp=preferred", url])
        #expect(stapled.status == 1)
        #expect(
            stapled.standardError.contains("certificate revoked (stapled OCSP response, reason: keyCompromise)"),
            "\(stapled.standardError)"
        )
        let listed = try await run(root + ["--crlfile", "\(pki)/intermediate-ca.crl.der", url])
        #expect(listed.status == 1)
        #expect(listed.standardError.contains("certificate revoked (CRL)"), "\(listed.standardError)")

        let unreadable = try await run(root + ["--crlfile", "/nonexistent/ca.crl", url])
        #expect(unreadable.status == 1)
        #expect(unreadable.standardError.contains("unreadableFile"), "\(unreadable.standardError)")
        let conflict = try await run(["--insecure", "--ocsp=required", url])
        #expect(conflict.status == 1)
        #expect(conflict.standardError.contains("conflict"))
        let unknownMode = try await run(root + ["--ocsp=sometimes", url])
        #expect(unknownMode.status == 1)
        #expect(unknownMode.standardError.contains("--ocsp takes required or preferred"))
    }
}
