import CourierLocking
import CourierSecurity
import Foundation

/// A `CertificateVerifying` double: keys and verification outcomes come from tables, and every
/// `verify` call is recorded so tests can pin what an evaluator asked for.
final class FakeCertificateVerifier: CertificateVerifying {
    struct VerifyCall: Equatable {
        var chain: [Certificate]
        var anchors: [Certificate]
        var host: String?
        var time: Date?
    }

    /// Public keys by certificate; a certificate without an entry is "unparseable".
    let keys: [Certificate: Data]
    /// Decides a verification; nil means it succeeds.
    let verifyOutcome: @Sendable (VerifyCall) -> SecurityError?
    private let calls = Lock<[VerifyCall]>([])
    private let keyReads = Lock<[Certificate]>([])

    init(
        keys: [Certificate: Data] = [:],
        verifyOutcome: @escaping @Sendable (VerifyCall) -> SecurityError? = { _ in nil }
    ) {
        self.keys = keys
        self.verifyOutcome = verifyOutcome
    }

    var verifyCalls: [VerifyCall] { calls.withLock { $0 } }
    /// The certificates whose public key was asked for, in order.
    var keyReadCertificates: [Certificate] { keyReads.withLock { $0 } }

    func verify(_ chain: [Certificate], anchors: [Certificate], host: String?, at time: Date?) throws(SecurityError) {
        let call = VerifyCall(chain: chain, anchors: anchors, host: host, time: time)
        calls.withLock { $0.append(call) }
        if let error = verifyOutcome(call) { throw error }
    }

    func subjectPublicKeyInfo(of certificate: Certificate) throws(SecurityError) -> Data {
        keyReads.withLock { $0.append(certificate) }
        guard let key = keys[certificate] else {
            throw SecurityError(.invalidCertificate, reason: "fake: unknown certificate")
        }
        return key
    }

    /// Not SHA-256: the first 32 bytes, zero-padded. Distinct fake keys give distinct "digests".
    func sha256(_ data: Data) -> Data {
        Data(data.prefix(32)) + Data(repeating: 0, count: max(0, 32 - data.count))
    }

    func certificates(fromPEM pem: Data) throws(SecurityError) -> [Certificate] {
        throw SecurityError(.invalidPEM, reason: "fake: no PEM support")
    }

    func info(of certificate: Certificate) throws(SecurityError) -> CertificateInfo {
        CertificateInfo(notBefore: Date(timeIntervalSince1970: 0), notAfter: Date(timeIntervalSince1970: 1))
    }
}

/// Fixture certificates and trusts for the evaluator tests: the "DER" bytes are labels.
enum TrustFixtures {
    static let leaf = Certificate(derBytes: Data("leaf".utf8))
    static let intermediate = Certificate(derBytes: Data("intermediate".utf8))
    static let root = Certificate(derBytes: Data("root".utf8))
    static let stranger = Certificate(derBytes: Data("stranger".utf8))

    static let leafKey = Data("leaf-key".utf8)
    static let intermediateKey = Data("intermediate-key".utf8)
    static let rootKey = Data("root-key".utf8)
    static let strangerKey = Data("stranger-key".utf8)

    static let selfSigned = ChainVerdict.untrusted(reason: "self-signed certificate", code: 18)

    static func verifier(
        verifyOutcome: @escaping @Sendable (FakeCertificateVerifier.VerifyCall) -> SecurityError? = { _ in nil }
    ) -> FakeCertificateVerifier {
        FakeCertificateVerifier(
            keys: [leaf: leafKey, intermediate: intermediateKey, root: rootKey, stranger: strangerKey],
            verifyOutcome: verifyOutcome
        )
    }

    static func trust(
        host: String? = "api.test",
        certificates: [Certificate] = [leaf, intermediate],
        verifiedChain: [Certificate] = [],
        chain: ChainVerdict = .trusted,
        hostVerdict: HostVerdict = .matches,
        verifier: any CertificateVerifying = verifier()
    ) -> ServerTrust {
        ServerTrust(
            host: host,
            certificates: certificates,
            verifiedChain: verifiedChain,
            chainVerdict: chain,
            hostVerdict: hostVerdict,
            verifier: verifier
        )
    }

    static func pin(_ key: Data, using verifier: any CertificateVerifying = verifier()) -> PublicKeyPin {
        PublicKeyPin(subjectPublicKeyInfo: key, using: verifier)
    }
}
