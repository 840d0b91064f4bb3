import CourierCurl
import CourierHTTP
import CourierSecurity
import CourierSecurityOpenSSL
import CourierTransport
import Foundation
import Testing

/// Client identities checked at configuration time and presented in memory, against the nginx
/// server that requires a client certificate from the per-run test CA.
@Suite struct CurlClientIdentityTests {
    static var server: URL? { CurlTestServers.url("TEST_MTLS_REQUIRED_URL") }
    static var ready: Bool { server != nil && CurlTestServers.value("TEST_CLIENT_P12") != nil }

    func fetch(_ identity: ClientIdentity?) async throws -> RecordedTransfer {
        let url = try #require(Self.server).adding("/client-cert")
        let transport = CurlTestServers.transport { $0.tls.clientIdentity = identity }
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()
        return recorded
    }

    @Test(.enabled(if: ready, "TEST_MTLS_REQUIRED_URL or the client identities not set"))
    func everyFormOfTheIdentityIsAcceptedAndNoneIsRefused() async throws {
        let certificate = try #require(CurlTestServers.value("TEST_CLIENT_CERT"))
        let key: String = try #require(CurlTestServers.value("TEST_CLIENT_KEY"))
        let encryptedKey: String = try #require(CurlTestServers.value("TEST_CLIENT_KEY_ENCRYPTED"))
        let bundle = try #require(CurlTestServers.value("TEST_CLIENT_P12"))
        let identities = [
            try ClientIdentity.load(certificateAt: certificate, keyAt: key),
            try ClientIdentity.load(certificateAt: certificate, keyAt: encryptedKey, passphrase: "courier-test"),
            try ClientIdentity.load(pkcs12At: bundle, passphrase: "courier-test"),
        ]
        for identity in identities {
            let recorded = try await fetch(identity)
            #expect(recorded.error == nil, "\(identity): \(String(describing: recorded.error))")
            let text = String(decoding: recorded.body, as: UTF8.self)
            #expect(text.hasPrefix("SUCCESS "), "\(text)")
            #expect(text.contains("courier-test-client"))
        }

        // Without an identity nginx refuses: in the TLS 1.3 handshake or with its 400 page.
        let refused = try await fetch(nil)
        #expect(refused.error != nil || refused.response?.status.code == 400)
    }

    @Test(.enabled(if: ready, "TEST_MTLS_REQUIRED_URL or the client identities not set"))
    func aWrongPassphraseIsAnErrorBeforeAnyConnection() throws {
        let p12 = try #require(CurlTestServers.value("TEST_CLIENT_P12"))
        #expect {
            try ClientIdentity.load(pkcs12At: p12, passphrase: "not the passphrase")
        } throws: { error in
            (error as? SecurityError)?.code == .wrongPassphrase
        }
    }
}
