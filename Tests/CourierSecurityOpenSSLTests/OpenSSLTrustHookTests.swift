import CCourierOpenSSL
import CourierLocking
import CourierSecurity
import CourierSecurityOpenSSL
import Foundation
import Testing

@Suite struct OpenSSLTrustHookTests {
    private func leafServer(clientAnchors: [Certificate] = [PKIFixtures.root]) throws -> InMemoryTLSHandshake {
        try InMemoryTLSHandshake(
            certificateChainFile: PKIFixtures.path("leaf-chain.pem"),
            keyFile: PKIFixtures.path("leaf.key"),
            clientAnchors: clientAnchors
        )
    }

    private func selfSignedServer() throws -> InMemoryTLSHandshake {
        try InMemoryTLSHandshake(
            certificateChainFile: PKIFixtures.path("self-signed.pem"),
            keyFile: PKIFixtures.path("self-signed.key"),
            clientAnchors: []
        )
    }

    @Test func handsThePresentedAndVerifiedChainsToTheEvaluatorThenCarriesData() throws {
        let handshake = try leafServer()
        let evaluator = RecordingTrustEvaluator(decision: .accept)
        try OpenSSLTrustHook(evaluator: evaluator).install(
            on: UnsafeMutableRawPointer(handshake.clientContext),
            host: "localhost"
        )

        let outcome = try handshake.run()

        #expect(outcome.clientHandshakeDone && outcome.serverHandshakeDone)
        #expect(outcome.clientVerifyResult == Int(X509_V_OK))
        #expect(outcome.applicationDataAtServer == Data("ping".utf8))
        let trusts = evaluator.trusts
        #expect(trusts.count == 1)
        let trust = try #require(trusts.first)
        #expect(trust.host == "localhost")
        #expect(trust.certificates == [PKIFixtures.leaf, PKIFixtures.intermediate])
        #expect(trust.verifiedChain == [PKIFixtures.leaf, PKIFixtures.intermediate, PKIFixtures.root])
        #expect(trust.chainVerdict == .trusted)
        #expect(trust.hostVerdict == .matches)
        // The verifier in the trust works inside the handshake.
        #expect(
            try trust.verifier.publicKeyPin(of: PKIFixtures.leaf) == "sha256//" + PKIFixtures.text("leaf.spki.sha256")
        )
    }

    @Test func aRejectionAbortsTheHandshakeBeforeAnyApplicationData() throws {
        let handshake = try leafServer()
        let evaluator = RecordingTrustEvaluator(decision: .reject(reason: "test says no"))
        let decisions = Lock<[TrustDecision]>([])
        try OpenSSLTrustHook(evaluator: evaluator).install(
            on: UnsafeMutableRawPointer(handshake.clientContext),
            host: "localhost"
        ) { _, decision in decisions.withLock { $0.append(decision) } }

        let outcome = try handshake.run()

        #expect(!outcome.clientHandshakeDone)
        #expect(!outcome.serverHandshakeDone)
        #expect(outcome.clientVerifyResult == Int(X509_V_ERR_APPLICATION_VERIFICATION))
        #expect(outcome.applicationDataAtServer.isEmpty)
        #expect(evaluator.trusts.count == 1)
        #expect(decisions.withLock { $0 } == [.reject(reason: "test says no")])
    }

    @Test func reportsTheStoresVerdictWithoutTheAnchorAndAnAcceptOverridesIt() throws {
        let handshake = try leafServer(clientAnchors: [])
        let evaluator = RecordingTrustEvaluator(decision: .accept)
        try OpenSSLTrustHook(evaluator: evaluator).install(
            on: UnsafeMutableRawPointer(handshake.clientContext),
            host: "api.test"
        )

        let outcome = try handshake.run()

        let trust = try #require(evaluator.trusts.first)
        #expect(trust.chainVerdict == .untrusted(reason: "unable to get local issuer certificate", code: 20))
        #expect(trust.verifiedChain.isEmpty)
        #expect(trust.certificates == [PKIFixtures.leaf, PKIFixtures.intermediate])
        #expect(trust.hostVerdict == .matches)
        #expect(outcome.clientHandshakeDone)
        #expect(outcome.clientVerifyResult == Int(X509_V_OK))
        #expect(outcome.applicationDataAtServer == Data("ping".utf8))
    }

    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1", HostVerdict.matches),
        ("[::1]", "::1", .matches),
        ("api.test", "api.test", .matches),
        ("other.test", "other.test", .mismatch),
        ("10.1.2.3", "10.1.2.3", .mismatch),
    ])
    func checksTheHostOnTheLeafSeparatelyFromTheChain(host: String, seenHost: String, verdict: HostVerdict) throws {
        let handshake = try leafServer()
        let evaluator = RecordingTrustEvaluator(decision: .accept)
        try OpenSSLTrustHook(evaluator: evaluator).install(
            on: UnsafeMutableRawPointer(handshake.clientContext),
            host: host
        )

        _ = try handshake.run()

        let trust = try #require(evaluator.trusts.first)
        #expect(trust.host == seenHost)
        #expect(trust.hostVerdict == verdict)
        #expect(trust.chainVerdict == .trusted)
    }

    @Test func checksNoHostWithoutOne() throws {
        let handshake = try leafServer()
        let evaluator = RecordingTrustEvaluator(decision: .accept)
        try OpenSSLTrustHook(evaluator: evaluator).install(
            on: UnsafeMutableRawPointer(handshake.clientContext),
            host: nil
        )

        _ = try handshake.run()

        let trust = try #require(evaluator.trusts.first)
        #expect(trust.host == nil)
        #expect(trust.hostVerdict == .notChecked)
    }

    @Test func theDefaultEvaluatorRejectsAWrongHostAndAcceptsTheRightOne() throws {
        for (host, accepted) in [("localhost", true), ("other.test", false)] {
            let handshake = try leafServer()
            try OpenSSLTrustHook(evaluator: DefaultTrustEvaluator()).install(
                on: UnsafeMutableRawPointer(handshake.clientContext),
                host: host
            )

            let outcome = try handshake.run()

            #expect(outcome.clientHandshakeDone == accepted, "\(host)")
            #expect(outcome.applicationDataAtServer == (accepted ? Data("ping".utf8) : Data()), "\(host)")
        }
    }

    @Test func pinningTheSelfSignedCertificateAcceptsItAndPinningAnotherRejectsIt() throws {
        for (pinned, accepted) in [(PKIFixtures.selfSigned, true), (PKIFixtures.root, false)] {
            let handshake = try selfSignedServer()
            let decisions = Lock<[TrustDecision]>([])
            try OpenSSLTrustHook(evaluator: PinnedCertificatesTrustEvaluator(pinnedCertificates: [pinned])).install(
                on: UnsafeMutableRawPointer(handshake.clientContext),
                host: "127.0.0.1"
            ) { trust, decision in
                #expect(trust.chainVerdict == .untrusted(reason: "self-signed certificate", code: 18))
                decisions.withLock { $0.append(decision) }
            }

            let outcome = try handshake.run()

            #expect(outcome.clientHandshakeDone == accepted)
            #expect(outcome.applicationDataAtServer == (accepted ? Data("ping".utf8) : Data()))
            #expect(decisions.withLock { $0.count } == 1)
        }
    }

    @Test func runsForEveryConnectionOfTheContextAndAReinstallReplacesTheEvaluator() throws {
        let handshake = try leafServer()
        let first = RecordingTrustEvaluator(decision: .reject(reason: "first"))
        let second = RecordingTrustEvaluator(decision: .accept)
        let context = UnsafeMutableRawPointer(handshake.clientContext)
        try OpenSSLTrustHook(evaluator: first).install(on: context, host: "localhost")
        try OpenSSLTrustHook(evaluator: second).install(on: context, host: "localhost")

        let outcomes = [try handshake.run(), try handshake.run()]

        #expect(outcomes.map(\.clientHandshakeDone) == [true, true])
        #expect(first.trusts.isEmpty)
        #expect(second.trusts.count == 2)
    }

    @Test func theContextReleasesTheEvaluatorWhenOpenSSLFreesIt() throws {
        weak var released: RecordingTrustEvaluator?
        weak var replaced: RecordingTrustEvaluator?
        var handshake: InMemoryTLSHandshake? = try leafServer()
        do {
            let evaluator = RecordingTrustEvaluator(decision: .accept)
            let replacedEvaluator = RecordingTrustEvaluator(decision: .accept)
            released = evaluator
            replaced = replacedEvaluator
            let context = try #require(handshake.map { UnsafeMutableRawPointer($0.clientContext) })
            try OpenSSLTrustHook(evaluator: replacedEvaluator).install(on: context, host: nil)
            try OpenSSLTrustHook(evaluator: evaluator).install(on: context, host: nil)
            _ = try handshake?.run()
        }

        #expect(replaced == nil)
        #expect(released != nil)
        handshake = nil
        #expect(released == nil)
    }
}
