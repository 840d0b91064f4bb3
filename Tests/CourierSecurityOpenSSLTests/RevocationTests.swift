import CCourierOpenSSL
import CourierLocking
import CourierSecurity
import CourierSecurityOpenSSL
import Foundation
import Testing

/// Revocation checks of the trust hook over real in-process TLS 1.2 and 1.3 handshakes with the
/// fixture PKI: a revoked leaf, the intermediate's CRLs and OCSP responses made by `openssl ocsp`.
@Suite struct RevocationTests {
    /// The hook's decisions during one handshake, as the transport's `onDecision` sees them.
    final class Decisions: Sendable {
        private let entries = Lock<[(ServerTrust, TrustDecision)]>([])
        func append(_ trust: ServerTrust, _ decision: TrustDecision) {
            entries.withLock { $0.append((trust, decision)) }
        }
        var all: [(ServerTrust, TrustDecision)] { entries.withLock { $0 } }
        var lastFailure: SecurityError? { all.last?.0.revocationFailure }
    }

    struct Result {
        let outcome: InMemoryTLSHandshake.Outcome
        let decisions: Decisions
        let evaluator: RecordingTrustEvaluator

        /// The handshake completed and the client's first application bytes reached the server.
        var carriedData: Bool { outcome.clientHandshakeDone && outcome.applicationDataAtServer == Data("ping".utf8) }
        /// The client gave up in the handshake and the server received no application byte.
        var refusedBeforeData: Bool { !outcome.clientHandshakeDone && outcome.applicationDataAtServer.isEmpty }
    }

    static let versions = [TLS1_2_VERSION, TLS1_3_VERSION]

    /// One handshake with `server` ("leaf" or "revoked") stapling `staple` when asked.
    func handshake(
        _ server: String,
        staple: String? = nil,
        revocation: RevocationPolicy,
        version: Int32,
        evaluator: RecordingTrustEvaluator = RecordingTrustEvaluator(decision: .accept)
    ) throws -> Result {
        let chain = server == "self-signed" ? "self-signed.pem" : "\(server)-chain.pem"
        let handshake = try InMemoryTLSHandshake(
            certificateChainFile: PKIFixtures.path(chain),
            keyFile: PKIFixtures.path("\(server).key"),
            clientAnchors: [PKIFixtures.root],
            staple: staple.map(PKIFixtures.data),
            maximumVersion: Int(version)
        )
        let decisions = Decisions()
        try OpenSSLTrustHook(evaluator: evaluator, revocation: revocation).install(
            on: UnsafeMutableRawPointer(handshake.clientContext),
            host: "localhost"
        ) { trust, decision in decisions.append(trust, decision) }
        return Result(outcome: try handshake.run(), decisions: decisions, evaluator: evaluator)
    }

    // MARK: Stapled OCSP

    /// One stapling case: the server, what it staples, the policy and what must come of it (nil:
    /// the request goes through; else the failure's code and a part of its reason).
    struct StapleCase: Sendable, CustomTestStringConvertible {
        let server: String
        let staple: String?
        let stapling: RevocationPolicy.OCSPStapling
        let failure: (code: SecurityError.Code, reason: String)?

        var testDescription: String { "\(server) stapling \(staple ?? "nothing"), \(stapling)" }
    }

    static let stapleCases = [
        StapleCase(server: "leaf", staple: "leaf.ocsp-good.der", stapling: .required, failure: nil),
        StapleCase(server: "leaf", staple: nil, stapling: .preferred, failure: nil),
        StapleCase(
            server: "leaf",
            staple: nil,
            stapling: .required,
            failure: (.revocationUnknown, "(OCSP stapling): the server stapled no OCSP response and one is required")
        ),
        // The evaluator accepts everything: a revoked certificate is refused anyway.
        StapleCase(
            server: "revoked",
            staple: "revoked.ocsp-revoked.der",
            stapling: .preferred,
            failure: (.certificateRevoked, "certificate revoked (stapled OCSP response, reason: keyCompromise)")
        ),
        StapleCase(
            server: "leaf",
            staple: "leaf.ocsp-wrong-signer.der",
            stapling: .preferred,
            failure: (.revocationUnknown, "(OCSP stapling): the stapled OCSP response's signature does not verify")
        ),
        // A "good" from 2020: what an attacker holding a since-revoked key would replay.
        StapleCase(
            server: "leaf",
            staple: "leaf.ocsp-stale.der",
            stapling: .preferred,
            failure: (.revocationUnknown, "(OCSP stapling): the stapled OCSP response is out of date or not yet valid")
        ),
        StapleCase(
            server: "revoked",
            staple: "leaf.ocsp-good.der",
            stapling: .preferred,
            failure: (.revocationUnknown, "the stapled OCSP response does not cover the server's certificate")
        ),
    ]

    @Test(arguments: stapleCases, versions) func stapledResponse(_ stapleCase: StapleCase, version: Int32) throws {
        let result = try handshake(
            stapleCase.server,
            staple: stapleCase.staple,
            revocation: RevocationPolicy(ocspStapling: stapleCase.stapling),
            version: version
        )
        #expect(result.evaluator.trusts.count == 1)  // the staple is judged after the evaluator accepted
        guard let expected = stapleCase.failure else {
            #expect(result.carriedData)
            #expect(result.decisions.all.map(\.1) == [.accept])
            return
        }
        #expect(result.refusedBeforeData)
        let failure = try #require(result.decisions.lastFailure)
        #expect(failure.code == expected.code)
        #expect(failure.reason.contains(expected.reason), "\(failure.reason)")
        #expect(result.decisions.all.last?.1 == .reject(reason: failure.reason))
    }

    @Test func ignoredStaplingDoesNotAskTheServer() throws {
        // The server would staple "revoked", but only when asked.
        let result = try handshake(
            "revoked",
            staple: "revoked.ocsp-revoked.der",
            revocation: .none,
            version: TLS1_3_VERSION
        )
        #expect(result.carriedData)
    }

    // MARK: CRLs

    @Test(arguments: versions) func crlThatListsTheLeafFailsWhateverTheEvaluatorSays(version: Int32) throws {
        let revocation = try RevocationPolicy(crlFiles: [PKIFixtures.path("intermediate-ca.crl.pem")])
        let result = try handshake("revoked", revocation: revocation, version: version)
        #expect(result.refusedBeforeData)
        let failure = try #require(result.decisions.lastFailure)
        #expect(failure.code == .certificateRevoked)
        #expect(failure.reason == "certificate revoked (CRL): O=Courier Tests,CN=revoked.test")
        #expect(failure.libraryCode == Int(X509_V_ERR_CERT_REVOKED))
        #expect(result.evaluator.trusts.isEmpty)  // final: the evaluator is not asked
        #expect(result.outcome.clientVerifyResult == Int(X509_V_ERR_APPLICATION_VERIFICATION))
    }

    @Test func crlThatDoesNotListTheLeafPasses() throws {
        let revocation = try RevocationPolicy(crlFiles: [PKIFixtures.path("intermediate-ca.crl.der")])
        let result = try handshake("leaf", revocation: revocation, version: TLS1_3_VERSION)
        #expect(result.carriedData)
        #expect(result.evaluator.trusts.first?.chainVerdict == .trusted)
    }

    @Test func aChainTheStoreDoesNotTrustIsLeftToTheEvaluator() throws {
        // No issuer in the store, so no CRL applies: the evaluator (here one that accepts all) decides.
        let revocation = try RevocationPolicy(crlFiles: [PKIFixtures.path("intermediate-ca.crl.pem")])
        let result = try handshake("self-signed", revocation: revocation, version: TLS1_3_VERSION)
        #expect(result.carriedData)
        #expect(result.evaluator.trusts.first?.chainVerdict.isTrusted == false)
        #expect(result.decisions.lastFailure == nil)
    }

    @Test func expiredCRLLeavesTheStatusUnknown() throws {
        let revocation = try RevocationPolicy(crlFiles: [PKIFixtures.path("intermediate-ca-expired.crl.pem")])
        let result = try handshake("leaf", revocation: revocation, version: TLS1_3_VERSION)
        #expect(result.refusedBeforeData)
        let failure = try #require(result.decisions.lastFailure)
        #expect(failure.code == .revocationUnknown)
        #expect(failure.reason == "revocation unknown (CRL): CRL has expired for O=Courier Tests,CN=localhost")
    }

    @Test func wholeChainCheckingNeedsTheRootsCRLToo() throws {
        let leafOnly = try RevocationPolicy(
            crlFiles: [PKIFixtures.path("intermediate-ca.crl.pem")],
            checksWholeChain: true
        )
        let missing = try handshake("leaf", revocation: leafOnly, version: TLS1_3_VERSION)
        #expect(missing.refusedBeforeData)
        #expect(missing.decisions.lastFailure?.code == .revocationUnknown)
        #expect(missing.decisions.lastFailure?.reason.contains("Courier Test Intermediate CA") == true)

        let both = try RevocationPolicy(
            crlFiles: [PKIFixtures.path("intermediate-ca.crl.pem"), PKIFixtures.path("root-ca.crl.pem")],
            checksWholeChain: true
        )
        #expect(try handshake("leaf", revocation: both, version: TLS1_3_VERSION).carriedData)
    }

    @Test func crlAndStapleTogetherReportTheFirstMechanismThatFails() throws {
        let revocation = try RevocationPolicy(
            ocspStapling: .required,
            crlFiles: [PKIFixtures.path("intermediate-ca.crl.pem")]
        )
        let result = try handshake(
            "revoked",
            staple: "revoked.ocsp-revoked.der",
            revocation: revocation,
            version: TLS1_2_VERSION
        )
        #expect(result.refusedBeforeData)
        #expect(result.decisions.all.count == 1)
        #expect(result.decisions.lastFailure?.reason.hasPrefix("certificate revoked (CRL)") == true)
    }

    // MARK: Loading CRLs

    @Test func crlDataIsCheckedWhenThePolicyIsMade() throws {
        let pem = PKIFixtures.data("intermediate-ca.crl.pem")
        let der = PKIFixtures.data("intermediate-ca.crl.der")
        let both = try RevocationPolicy(crlData: [pem + PKIFixtures.data("root-ca.crl.pem"), der])
        #expect(both.certificateRevocationLists.count == 3)
        #expect(both.certificateRevocationLists[0] == der)  // PEM is kept as its DER

        #expect(throws: SecurityError.self) { try RevocationPolicy(crlData: [Data("not a CRL".utf8)]) }
        do {
            _ = try RevocationPolicy(crlData: [PKIFixtures.data("leaf.der")])
            Issue.record("a certificate was taken for a CRL")
        } catch {
            #expect(error.code == .invalidCRL)
        }
        do {
            _ = try RevocationPolicy(crlData: [pem.prefix(pem.count / 2)])
            Issue.record("a truncated PEM CRL was accepted")
        } catch {
            #expect(error.code == .invalidCRL)
        }
        do {
            _ = try RevocationPolicy(crlFiles: ["/nonexistent/ca.crl"])
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.code == .unreadableFile)
        }
    }
}
