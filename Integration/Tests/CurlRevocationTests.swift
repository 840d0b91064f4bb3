import CourierCurl
import CourierHTTP
import CourierSecurity
import CourierSecurityOpenSSL
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation
import Testing

/// Revocation through libcurl: nginx staples `openssl ocsp` responses of the fixed test PKI
/// (`TEST_STAPLING_URL`, by SNI), and the intermediate's CRL lists the revoked leaf. nginx logs every
/// request it receives, so a refused handshake is seen from the server's side as a request that never
/// arrived.
@Suite struct CurlRevocationTests {
    static let isAvailable =
        CurlTestServers.url("TEST_STAPLING_URL") != nil && CurlTestServers.value("TEST_PKI_DIR") != nil
        && CurlTestServers.value("TEST_STAPLING_LOG") != nil

    static func pki(_ name: String) throws -> String {
        let directory = try #require(CurlTestServers.value("TEST_PKI_DIR"))
        return URL(fileURLWithPath: directory).appendingPathComponent(name).path
    }

    /// A GET of a path no other request uses, to `name` (mapped to 127.0.0.1) on the stapling port,
    /// trusting the fixed test root, with `revocation` in the hook.
    func fetch(_ name: String, _ revocation: RevocationPolicy) async throws -> (RecordedTransfer, path: String) {
        let port = try #require(CurlTestServers.url("TEST_STAPLING_URL")?.port)
        let path = "/small?case=\(UUID().uuidString)"
        let url = try #require(URL(string: "https://\(name):\(port)\(path)"))
        let root = try Self.pki("root-ca.pem")
        let transport = CurlTestServers.transport {
            $0.tls.caFile = root
            $0.resolveOverrides = [.init(host: name, port: port, addresses: ["127.0.0.1"])]
            $0.trustInstaller = OpenSSLTrustHook(evaluator: DefaultTrustEvaluator(), revocation: revocation)
        }
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()
        return (recorded, path)
    }

    /// The request URIs nginx received on the stapling port.
    static func receivedPaths() throws -> String {
        try String(contentsOfFile: try #require(CurlTestServers.value("TEST_STAPLING_LOG")), encoding: .utf8)
    }

    func expectRefused(
        _ outcome: (RecordedTransfer, path: String),
        code: SecurityError.Code,
        reason: String,
        curlCode: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try #require(outcome.0.error, sourceLocation: sourceLocation)
        #expect(error.category == .serverTrustFailed, sourceLocation: sourceLocation)
        #expect(error.code == curlCode, sourceLocation: sourceLocation)
        #expect(error.message == "the trust policy rejected the server: \(reason)", sourceLocation: sourceLocation)
        let underlying = try #require(error.underlying as? SecurityError, sourceLocation: sourceLocation)
        #expect(underlying.code == code, sourceLocation: sourceLocation)
        #expect(error.metrics?.trustEvaluation?.reason == reason, sourceLocation: sourceLocation)
        #expect(error.metrics?.requestHeaderBytes == 0, sourceLocation: sourceLocation)
        #expect(outcome.0.response == nil, sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: isAvailable, "TEST_STAPLING_URL, TEST_PKI_DIR or TEST_STAPLING_LOG not set"))
    func stapledResponsesRequiredAndPreferred() async throws {
        let good = try await fetch("api.test", RevocationPolicy(ocspStapling: .required))
        #expect(good.0.response?.status.code == 200)

        let revoked = try await fetch("revoked.test", RevocationPolicy(ocspStapling: .preferred))
        // OpenSSL's status callback refuses with an alert after the verify callback: libcurl's 35.
        try expectRefused(
            revoked,
            code: .certificateRevoked,
            reason: "certificate revoked (stapled OCSP response, reason: keyCompromise)",
            curlCode: 35
        )

        let missingButRequired = try await fetch("localhost", RevocationPolicy(ocspStapling: .required))
        try expectRefused(
            missingButRequired,
            code: .revocationUnknown,
            reason:
                "revocation unknown (OCSP stapling): the server stapled no OCSP response and one is required",
            curlCode: 35
        )
        let missingAndPreferred = try await fetch("localhost", RevocationPolicy(ocspStapling: .preferred))
        #expect(missingAndPreferred.0.response?.status.code == 200)

        let received = try Self.receivedPaths()
        #expect(received.contains("api.test \(good.path)"))
        #expect(received.contains("localhost \(missingAndPreferred.path)"))
        #expect(!received.contains(revoked.path))
        #expect(!received.contains(missingButRequired.path))
    }

    @Test(.enabled(if: isAvailable, "TEST_STAPLING_URL, TEST_PKI_DIR or TEST_STAPLING_LOG not set"))
    func crlFromAFileRefusesTheRevokedLeaf() async throws {
        let crl = try RevocationPolicy(crlFiles: [Self.pki("intermediate-ca.crl.pem")])
        let revoked = try await fetch("revoked.test", crl)
        try expectRefused(
            revoked,
            code: .certificateRevoked,
            reason: "certificate revoked (CRL): O=Courier Tests,CN=revoked.test",
            curlCode: 60
        )
        let good = try await fetch("api.test", crl)
        #expect(good.0.response?.status.code == 200)

        let received = try Self.receivedPaths()
        #expect(received.contains("api.test \(good.path)"))
        #expect(!received.contains(revoked.path))
    }

    @Test(.enabled(if: isAvailable, "TEST_STAPLING_URL, TEST_PKI_DIR or TEST_STAPLING_LOG not set"))
    func aRevokedServerFailsTheSessionTaskWithAFNetworkingsTrustErrorAndTheTypedCause() async throws {
        let port = try #require(CurlTestServers.url("TEST_STAPLING_URL")?.port)
        let base = try #require(URL(string: "https://revoked.test:\(port)"))
        let root = try Self.pki("root-ca.pem")
        let session = try HTTPSessionManager(
            baseURL: base,
            securityPolicy: SecurityPolicy.defaultPolicy(verifier: OpenSSLCertificateVerifier()),
            interceptor: RetryPolicy()
        ) { policy in
            CurlTestServers.transport {
                $0.tls.caFile = root
                $0.resolveOverrides = [.init(host: "revoked.test", port: port, addresses: ["127.0.0.1"])]
                $0.trustInstaller = OpenSSLTrustHook(
                    evaluator: policy,
                    revocation: RevocationPolicy(ocspStapling: .preferred)
                )
            }
        }
        do {
            _ = try await session.data(.get, "small")
            Issue.record("a revoked server was trusted")
        } catch {
            #expect(error.urlErrorCode == -1202)
            #expect(error.message == SessionError.serverTrustDescription(host: "revoked.test"))
            #expect((error.transportError?.underlying as? SecurityError)?.code == .certificateRevoked)
            #expect(error.serverTrust?.reason?.hasPrefix("certificate revoked (stapled OCSP response") == true)
            #expect(error.transportError?.metrics?.requestHeaderBytes == 0)
        }
        await session.shutdown()
    }
}
