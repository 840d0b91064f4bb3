import CourierTransport
import FoundationEssentials
import Testing

@Suite struct TrustEvaluationRecordTests {
    static let notAfter = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
    static let leaf = TrustEvaluationRecord.CertificateSummary(
        subject: "localhost",
        issuer: "Test CA",
        notAfter: notAfter
    )
    static let root = TrustEvaluationRecord.CertificateSummary(subject: "Test CA", issuer: "Test CA", notAfter: nil)

    static func record(
        host: String? = "127.0.0.1",
        chain: [TrustEvaluationRecord.CertificateSummary] = [leaf, root],
        defaultVerdict: String = "chain trusted; host matches",
        decision: TrustEvaluationRecord.Decision = .accept
    ) -> TrustEvaluationRecord {
        TrustEvaluationRecord(host: host, chain: chain, defaultVerdict: defaultVerdict, decision: decision)
    }

    @Test func acceptedRecordHasNoReasonAndNamesItsLeaf() {
        let record = Self.record()
        #expect(record.isAccepted)
        #expect(record.reason == nil)
        #expect(record.leafSubject == "localhost")
        #expect(record.decision.description == "accept")
    }

    @Test func rejectedRecordCarriesTheEvaluatorsReason() {
        let record = Self.record(decision: .reject(reason: "no pinned key in the chain"))
        #expect(!record.isAccepted)
        #expect(record.reason == "no pinned key in the chain")
        #expect(record.decision.description == "reject: no pinned key in the chain")
    }

    @Test func emptyChainHasNoLeafSubject() {
        #expect(Self.record(chain: []).leafSubject == nil)
        #expect(Self.record(chain: [.init(subject: nil, issuer: nil, notAfter: nil)]).leafSubject == nil)
    }

    @Test func descriptionSummarisesHostDecisionChainAndVerdict() {
        let record = Self.record(host: nil, decision: .reject(reason: "pin mismatch"))
        #expect(
            record.description
                == "-: reject: pin mismatch [localhost <- Test CA, Test CA <- Test CA] (chain trusted; host matches)"
        )
        #expect(
            TrustEvaluationRecord.CertificateSummary(subject: nil, issuer: "CA", notAfter: nil).description == "? <- CA"
        )
    }

    @Test func equalRecordsHashAlike() {
        let first = Self.record()
        let second = Self.record()
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
    }

    /// Every stored property takes part in equality: a record that differs in any one is another record.
    @Test(arguments: 0..<6)
    func recordsDifferingInOneFieldAreUnequal(field: Int) {
        var changed = Self.record()
        switch field {
        case 0: changed.host = "localhost"
        case 1: changed.chain = [Self.leaf]
        case 2: changed.defaultVerdict = "chain untrusted: self-signed certificate (code 18); host matches"
        case 3: changed.decision = .reject(reason: "no")
        case 4: changed.chain[0].notAfter = nil
        default: changed.chain[0].issuer = "Other CA"
        }
        #expect(changed != Self.record())
        #expect(Set([changed, Self.record()]).count == 2)
    }

    @Test func recordIsAValue() {
        let original = Self.record()
        var copy = original
        copy.chain[0].subject = "api.test"
        #expect(original.leafSubject == "localhost")
        #expect(copy.leafSubject == "api.test")
    }

    @Test func metricsCarryTheRecordAndStartDateInEquality() {
        var metrics = TransferMetrics()
        #expect(metrics.trustEvaluation == nil)
        #expect(metrics.startDate == nil)
        var withRecord = metrics
        withRecord.trustEvaluation = Self.record()
        #expect(withRecord != metrics)
        metrics.trustEvaluation = Self.record(decision: .reject(reason: "no"))
        #expect(withRecord != metrics)
        metrics.trustEvaluation = Self.record()
        #expect(withRecord == metrics)
        withRecord.startDate = Self.notAfter
        #expect(withRecord != metrics)
        #expect(Set([withRecord, metrics]).count == 2)
    }
}
