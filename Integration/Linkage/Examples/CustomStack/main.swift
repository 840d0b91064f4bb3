import CourierCurl
import CourierHTTP
import CourierSecurity
import CourierSecurityOpenSSL
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import FoundationEssentials

struct Item: Decodable, Sendable {
    let id: Int
    let name: String
}

// AFNetworking's security policy: pin the public keys of the certificates in a directory (every
// .cer, .crt, .pem and .der file). A pinning policy on an http base URL is refused.
let policy = try SecurityPolicy(
    pinningMode: .publicKey,
    certificatesInDirectory: "/etc/myapp/pins",
    verifier: OpenSSLCertificateVerifier()
)

// The session on a libcurl transport that trusts an internal CA and runs the policy in every TLS
// handshake, with retries (2, exponential backoff, idempotent requests) and redirects followed.
let api = try HTTPSessionManager(
    baseURL: URL(string: "https://api.internal.example/v1"),
    securityPolicy: policy,
    interceptor: RetryPolicy()
) { policy in
    var configuration = CurlTransport.Configuration()
    configuration.tls.caFile = "/etc/ssl/certs/internal-ca.pem"
    configuration.trustInstaller = OpenSSLTrustHook(evaluator: policy)
    return CurlTransport(configuration: configuration)
}
api.requestSerializer = JSONRequestSerializer()

// POST https://api.internal.example/v1/items with a JSON body, decoded into an Item.
let created = try await api.decodable(.post, "items", parameters: ["name": "Ada"], as: Item.self)
print(created.response?.status ?? "-", created.value?.name ?? "no content", created.metrics.count)
await api.shutdown()
