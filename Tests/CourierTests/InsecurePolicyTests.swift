import Courier
import CourierLocking
import CourierTesting
import Foundation
import Testing

/// AFNetworking's guard: a pinning policy needs an https base URL.
@Suite struct InsecurePolicyTests {
    static func policy(_ mode: PinningMode) -> SecurityPolicy {
        SecurityPolicy(pinningMode: mode, verifier: CourierClient.certificateVerifier)
    }

    /// Counts the transports a factory made.
    final class Counter: Sendable {
        private let count = Lock(0)
        var value: Int { count.withLock { $0 } }
        func increment() { count.withLock { $0 += 1 } }
    }

    /// Builds a client whose transport factory counts its calls.
    static func client(
        _ baseURL: String?,
        _ mode: PinningMode,
        made: Counter
    ) throws(InsecureSecurityPolicyError) -> CourierClient {
        try CourierClient(baseURL: baseURL.flatMap(URL.init(string:))) { configuration in
            configuration.securityPolicy = policy(mode)
            configuration.makeTransport = { _ in
                made.increment()
                return MockTransport()
            }
        }
    }

    @Test(arguments: [
        (PinningMode.certificate, "AFSSLPinningModeCertificate"),
        (PinningMode.publicKey, "AFSSLPinningModePublicKey"),
    ])
    func aPinningPolicyOnPlainHTTPIsRefusedWithAFsReason(mode: PinningMode, name: String) {
        let made = Counter()
        #expect {
            _ = try Self.client("http://api.example.com/v1", mode, made: made)
        } throws: { error in
            guard let refusal = error as? InsecureSecurityPolicyError else { return false }
            return refusal.reason
                == "A security policy configured with `\(name)` can only be applied on a manager with a secure base URL (i.e. https)"
                && refusal.description == "Invalid Security Policy: \(refusal.reason)" && refusal.pinningMode == mode
                && refusal.baseURL?.absoluteString == "http://api.example.com/v1"
        }
        #expect(made.value == 0)
    }

    @Test func aPinningPolicyWithoutABaseURLIsRefusedAsInAFNetworking() {
        let made = Counter()
        #expect {
            _ = try Self.client(nil, .certificate, made: made)
        } throws: { error in
            let refusal = error as? InsecureSecurityPolicyError
            return refusal?.pinningMode == .certificate && refusal?.baseURL == nil
        }
        #expect(made.value == 0)
    }

    @Test(arguments: ["https://api.example.com", "HTTPS://api.example.com/v1"])
    func aPinningPolicyOnHTTPSIsAccepted(baseURL: String) async throws {
        let made = Counter()
        let client = try Self.client(baseURL, .certificate, made: made)
        #expect(made.value == 1)
        await client.shutdown()
    }

    @Test(arguments: ["http://api.example.com", nil])
    func modeNoneIsAcceptedOnAnyBaseURL(baseURL: String?) async throws {
        let made = Counter()
        let client = try Self.client(baseURL, .none, made: made)
        #expect(made.value == 1)
        await client.shutdown()
    }
}
