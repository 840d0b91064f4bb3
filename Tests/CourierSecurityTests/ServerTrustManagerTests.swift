import CourierSecurity
import Testing

@Suite struct ServerTrustManagerTests {
    typealias F = TrustFixtures

    static let pinned = RejectAllTrustEvaluator(reason: "pinned")
    static let cdn = RejectAllTrustEvaluator(reason: "cdn")
    static let fallback = RejectAllTrustEvaluator(reason: "fallback")

    /// The reason of the evaluator the manager chose, which tells the evaluators apart.
    func chosen(_ manager: ServerTrustManager, _ host: String?) -> String {
        switch manager.evaluate(F.trust(host: host)) {
        case .accept: "accept"
        case .reject(let reason): reason
        }
    }

    func manager(allHostsMustBeEvaluated: Bool = true) throws -> ServerTrustManager {
        try ServerTrustManager(
            allHostsMustBeEvaluated: allHostsMustBeEvaluated,
            evaluators: [
                "API.example.com": Self.pinned, "*.cdn.example.com": Self.cdn, "::1": AcceptAllTrustEvaluator(),
            ],
            defaultEvaluator: Self.fallback
        )
    }

    @Test(arguments: [
        ("api.example.com", "pinned"),
        ("Api.Example.COM.", "pinned"),
        ("img.cdn.example.com", "cdn"),
        ("IMG.CDN.example.com", "cdn"),
        ("::1", "accept"),
        ("[::1]", "accept"),
    ])
    func choosesTheExactOrWildcardEvaluatorWithoutRegardToCase(host: String, expected: String) throws {
        #expect(chosen(try manager(), host) == expected)
    }

    @Test(arguments: ["cdn.example.com", "a.b.cdn.example.com", "example.com", "xcdn.example.com", "other.test"])
    func aWildcardCoversExactlyOneLabel(host: String) throws {
        #expect(chosen(try manager(allHostsMustBeEvaluated: false), host) == "fallback")
    }

    @Test func anExactKeyWinsOverAWildcard() throws {
        let manager = try ServerTrustManager(evaluators: ["*.example.com": Self.cdn, "api.example.com": Self.pinned])
        #expect(chosen(manager, "api.example.com") == "pinned")
        #expect(chosen(manager, "www.example.com") == "cdn")
    }

    @Test func unlistedHostsFailWithATypedErrorWhenAllMustBeEvaluated() throws {
        let manager = try manager()
        #expect(manager.allHostsMustBeEvaluated)
        #expect(throws: SecurityError(.noRequiredEvaluator, reason: Self.missing("other.test"))) {
            try manager.serverTrustEvaluator(forHost: "other.test")
        }
        #expect(chosen(manager, "other.test") == Self.missing("other.test"))
        #expect(chosen(manager, nil) == Self.missing("(none)"))
    }

    @Test func unlistedHostsGetTheDefaultEvaluatorOtherwise() throws {
        let manager = try manager(allHostsMustBeEvaluated: false)
        #expect(try manager.serverTrustEvaluator(forHost: "other.test") == nil)
        #expect(chosen(manager, "other.test") == "fallback")
        #expect(chosen(manager, nil) == "fallback")
        let standard = try ServerTrustManager(allHostsMustBeEvaluated: false, evaluators: [:])
        #expect(
            standard.evaluate(F.trust(chain: F.selfSigned))
                == DefaultTrustEvaluator().evaluate(F.trust(chain: F.selfSigned))
        )
        #expect(standard.evaluate(F.trust()) == .accept)
    }

    @Test(arguments: ["", "*", "*.", "a.*.example.com", "*.*.example.com", "api*.example.com", "*..example.com"])
    func rejectsMalformedKeys(key: String) {
        #expect(throws: SecurityError.self) {
            try ServerTrustManager(evaluators: [key: Self.pinned])
        }
    }

    @Test func rejectsTwoKeysForTheSameHost() {
        #expect(throws: SecurityError(.invalidHostPattern, reason: "two keys name the same host: api.test.")) {
            try ServerTrustManager(evaluators: ["api.test": Self.pinned, "api.test.": Self.cdn])
        }
    }

    static func missing(_ host: String) -> String {
        "A ServerTrustEvaluating value is required for host \(host) but none was found."
    }
}

@Suite struct CompositeTrustEvaluatorTests {
    typealias F = TrustFixtures

    @Test func acceptsOnlyWhenEveryEvaluatorAccepts() {
        let composite = CompositeTrustEvaluator([DefaultTrustEvaluator(), AcceptAllTrustEvaluator()])
        #expect(composite.evaluate(F.trust()) == .accept)
        #expect(
            composite.evaluate(F.trust(hostVerdict: .mismatch))
                == .reject(reason: "certificate is not valid for host api.test")
        )
    }

    @Test func returnsTheFirstRejectionAndRunsNothingAfterIt() {
        let verifier = F.verifier()
        let composite = CompositeTrustEvaluator([
            RejectAllTrustEvaluator(reason: "first"),
            PinnedCertificatesTrustEvaluator(pinnedCertificates: [F.root]),
        ])
        #expect(composite.evaluate(F.trust(verifier: verifier)) == .reject(reason: "first"))
        #expect(verifier.verifyCalls.isEmpty)
    }

    @Test func anEmptyCompositeTrustsNothing() {
        #expect(
            CompositeTrustEvaluator([]).evaluate(F.trust())
                == .reject(reason: "a composite trust evaluator without evaluators trusts nothing")
        )
    }
}
