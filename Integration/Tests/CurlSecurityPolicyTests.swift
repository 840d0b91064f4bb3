import CourierCurl
import CourierHTTP
import CourierSecurity
import CourierSecurityOpenSSL
import CourierTransport
import Foundation
import Testing

/// AFNetworking's security policy and the per-host trust manager inside libcurl's TLS handshake,
/// against the per-run test CA of `ci/servers`.
@Suite struct CurlSecurityPolicyTests {
    static let verifier = OpenSSLCertificateVerifier()

    static func certificates(_ key: String) throws -> [Certificate] {
        let path = try #require(CurlTestServers.value(key), "\(key) not set")
        return try PinnedCertificateLoader.certificates(contentsOfFile: path, using: verifier)
    }

    static func policy(_ mode: PinningMode, _ pinned: [Certificate]) -> SecurityPolicy {
        SecurityPolicy(pinningMode: mode, pinnedCertificates: pinned, verifier: verifier)
    }

    /// One GET through a fresh transport with `evaluator` behind an `OpenSSLTrustHook`, as the trust tests do.
    func fetch(
        _ url: URL,
        _ evaluator: any ServerTrustEvaluating,
        adjust: (inout CurlTransport.Configuration) -> Void = { _ in }
    ) async -> RecordedTransfer {
        await CurlServerTrustTests().fetch(url, RecordingTrustEvaluator(evaluator), adjust: adjust)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func certificatePinningAcceptsTheServerCertificateAndRejectsAnotherBeforeSending() async throws {
        let url = try #require(CurlTestServers.https).adding("/small")
        let leaf = try #require(try Self.certificates("TEST_SERVER_CERT").first)

        let pinned = await fetch(url, Self.policy(.certificate, [leaf]))
        #expect(pinned.error == nil)
        #expect(pinned.response?.status.code == 200)
        #expect(pinned.body.count == 100)

        let wrong = await fetch(url, Self.policy(.certificate, try Self.certificates("TEST_OTHER_CA_FILE")))
        let error = try #require(wrong.error)
        #expect(error.category == .serverTrustFailed)
        #expect(
            error.message
                == "the trust policy rejected the server: certificate chain does not verify against the pinned certificates: unable to get local issuer certificate"
        )
        #expect(error.metrics?.requestHeaderBytes == 0)
        #expect(wrong.response == nil)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func publicKeyPinningAndTheDefaultPolicyThroughTheTransport() async throws {
        let url = try #require(CurlTestServers.https).adding("/small")
        let ca = try Self.certificates("TEST_CA_FILE")
        let accepted = await fetch(url, Self.policy(.publicKey, ca))
        #expect(accepted.response?.status.code == 200)
        let standard = await fetch(url, SecurityPolicy.defaultPolicy(verifier: Self.verifier))
        #expect(standard.response?.status.code == 200)
        let wrong = await fetch(url, Self.policy(.publicKey, try Self.certificates("TEST_OTHER_CA_FILE")))
        #expect(wrong.error?.category == .serverTrustFailed)
        #expect(wrong.error?.metrics?.requestHeaderBytes == 0)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func theManagerChoosesByHostAndFailsUnlistedHosts() async throws {
        let base = try #require(CurlTestServers.https)
        let port = try #require(base.port)
        let leaf = try #require(try Self.certificates("TEST_SERVER_CERT").first)
        let manager = try ServerTrustManager(evaluators: ["*.test": Self.policy(.certificate, [leaf])])
        let toLoopback: (inout CurlTransport.Configuration) -> Void = {
            $0.connectOverrides = [.init(host: "api.test", port: port, targetHost: "127.0.0.1", targetPort: port)]
        }
        let apiTest = try #require(URL(string: "https://api.test:\(port)/small"))
        let listed = await fetch(apiTest, manager, adjust: toLoopback)
        #expect(listed.response?.status.code == 200)

        let unlisted = await fetch(base.adding("/small"), manager)
        #expect(unlisted.error?.category == .serverTrustFailed)
        #expect(
            unlisted.error?.message
                == "the trust policy rejected the server: A ServerTrustEvaluating value is required for host 127.0.0.1 but none was found."
        )
        #expect(unlisted.error?.metrics?.requestHeaderBytes == 0)
    }

    @Test(.enabled(if: TLSByteCounter.isAvailable, "COURIER_PYTHON or TEST_SERVER_KEY not set"))
    func rejectionsReachTheServerWithZeroRequestBytes() async throws {
        let other = try Self.certificates("TEST_OTHER_CA_FILE")
        let leaf = try #require(try Self.certificates("TEST_SERVER_CERT").first)
        let rejecting: [any ServerTrustEvaluating] = [
            Self.policy(.certificate, other),
            Self.policy(.publicKey, other),
            try ServerTrustManager(evaluators: ["api.test": Self.policy(.certificate, [leaf])]),
        ]
        let server = try await TLSByteCounter.start(connections: rejecting.count + 1)
        let port = try #require(server.ready["PORT"])
        let url = try #require(URL(string: "https://127.0.0.1:\(port)/probe"))
        for evaluator in rejecting {
            let recorded = await fetch(url, evaluator)
            #expect(recorded.error?.category == .serverTrustFailed)
        }
        // The control: a certificate pin on the server's own certificate gets the request through.
        let accepted = await fetch(url, Self.policy(.certificate, [leaf]))
        #expect(accepted.response?.status.code == 200)

        try await TLSByteCounter.expectRejectionsThenControl(server, rejected: rejecting.count)
    }
}
