import Courier
import CourierCurl
import CourierSecurityOpenSSL
import Foundation
import Testing

/// What `CourierClient()` builds when nothing is configured: AFNetworking's defaults on libcurl.
@Suite struct ConfigurationDefaultsTests {
    @Test func theDefaultsAreAFNetworkingsOnTheSystemCAStore() {
        let configuration = CourierClient.Configuration()
        #expect(configuration.curl.tls.caFile == nil)
        #expect(configuration.curl.tls.caDirectory == nil)
        #expect(configuration.curl.tls.verifiesPeer && configuration.curl.tls.verifiesHost)
        #expect(configuration.curl.proxy == .environment)
        #expect(configuration.securityPolicy == nil)
        #expect(configuration.makeTransport == nil)
        #expect(configuration.requestSerializer is HTTPRequestSerializer)
        #expect(configuration.responseSerializer.acceptableStatusCodes == Set(200...299))
        #expect(configuration.responseSerializer.acceptableContentTypes?.contains("application/json") == true)
        #expect(configuration.retryPolicy?.retryLimit == 2)
        #expect(configuration.retryPolicy?.retryableMethods.contains(.post) == false)
        #expect(configuration.interceptors.isEmpty)
        #expect(configuration.eventMonitors.isEmpty)
        #expect(configuration.reachability == nil)
        #expect(configuration.session.maximumRedirects == 16)
        #expect(!configuration.session.allowsInsecureRedirects)
    }

    @Test func theDefaultClientRunsOnLibcurlWithTheRetryPolicyAndNoTrustHook() async throws {
        let client = try CourierClient(baseURL: URL(string: "https://api.example.com/v1"))
        let transport = try #require(client.transport as? CurlTransport)
        #expect(transport.configurationError == nil)
        #expect(transport.configuration.trustInstaller == nil)
        #expect(client.session.baseURL?.absoluteString == "https://api.example.com/v1/")
        #expect(client.session.requestSerializer is HTTPRequestSerializer)
        let interceptor = try #require(client.session.session.interceptor as? Interceptor)
        #expect(interceptor.retriers.count == 1)
        #expect(interceptor.retriers.first is RetryPolicy)
        #expect(interceptor.adapters.isEmpty)
        await client.shutdown()
    }

    @Test func aSecurityPolicyRunsInTheHandshakeBehindTheOpenSSLHook() async throws {
        let policy = SecurityPolicy(pinningMode: .publicKey, verifier: CourierClient.certificateVerifier)
        let client = try CourierClient(baseURL: URL(string: "https://api.example.com")) {
            $0.securityPolicy = policy
            $0.curl.tls.caFile = "/etc/myapp/ca.pem"
        }
        let transport = try #require(client.transport as? CurlTransport)
        let hook = try #require(transport.configuration.trustInstaller as? OpenSSLTrustHook)
        #expect((hook.evaluator as? SecurityPolicy)?.pinningMode == .publicKey)
        #expect(transport.configuration.tls.caFile == "/etc/myapp/ca.pem")
        await client.shutdown()
    }

    @Test func withoutRetriesOrInterceptorsTheSessionHasNoInterceptor() async throws {
        let client = try CourierClient { $0.retryPolicy = nil }
        #expect(client.session.session.interceptor == nil)
        await client.shutdown()
    }
}
