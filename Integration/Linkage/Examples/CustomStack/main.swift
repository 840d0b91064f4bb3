import CourierCurl
import CourierSecurity
import CourierSecurityOpenSSL
import CourierSerialization

// A libcurl transport that trusts an internal CA and, with AFNetworking's security policy, pins the
// public keys of the certificates in a directory (every .cer, .crt, .pem and .der file).
var configuration = CurlTransport.Configuration()
configuration.tls.caFile = "/etc/ssl/certs/internal-ca.pem"
configuration.trustInstaller = OpenSSLTrustHook(
    evaluator: try SecurityPolicy(
        pinningMode: .publicKey,
        certificatesInDirectory: "/etc/myapp/pins",
        verifier: OpenSSLCertificateVerifier()
    )
)
let transport = CurlTransport(configuration: configuration)

// The serializers of your choice on either side of it.
let request = try JSONRequestSerializer().request(
    method: .post,
    urlString: "https://api.internal.example/items",
    parameters: ["name": "Ada"]
)
let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)
let item = try JSONResponseSerializer().serialize(response: result.response, data: result.body)
print(result.response.status, item ?? "no content", result.metrics.total)
await transport.shutdown()
