import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

@Suite struct TransferCompletionTests {
    private let url = URL(string: "http://127.0.0.1/done")!

    private func describe(_ outcome: TransferCompletion.Outcome) -> String {
        switch outcome {
        case .completed(let challenge): challenge.map { "completed with \($0.status.code)" } ?? "completed"
        case .failed(let error): "failed \(error.category) \(error.code.map(String.init) ?? "-") \(error.message)"
        }
    }

    @Test func completesWithAHead() {
        var completion = TransferCompletion(code: 0, url: url, metrics: TransferMetrics())
        completion.hasDeliveredHead = true
        #expect(describe(completion.outcome { nil }) == "completed")
    }

    @Test func aCallbacksFailureWinsOverLibcurlsCodeAndCarriesTheMetrics() {
        var metrics = TransferMetrics()
        metrics.decodedBodyBytes = 7
        var completion = TransferCompletion(code: 23, url: url, metrics: metrics)
        completion.pendingFailure = TransportError(category: .limitExceeded, message: "too long", url: url)
        var finishedBody = false
        let outcome = completion.outcome {
            finishedBody = true
            return nil
        }
        #expect(describe(outcome) == "failed limitExceeded - too long")
        if case .failed(let error) = outcome { #expect(error.metrics?.decodedBodyBytes == 7) }
        #expect(!finishedBody)
    }

    @Test func aRefusedHeadStaysWithTheFailureAndItsMetrics() throws {
        var headers = HTTPHeaders()
        try headers.add(name: "Content-Range", value: "bytes */10240")
        let refused = HTTPResponse(status: HTTPStatus(code: 416), headers: headers, url: url)
        var completion = TransferCompletion(code: 23, url: url, metrics: TransferMetrics())
        completion.pendingFailure = TransportError(category: .resumeFailed, message: "416", url: url)
            .with(response: refused)

        guard case .failed(let error) = completion.outcome(finishingBody: { nil }) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.category == .resumeFailed)
        #expect(error.metrics != nil)
        #expect(error.response?.status.code == 416)
        #expect(error.response?.headers["Content-Range"] == "bytes */10240")
    }

    @Test func aOneShotBodyThatMustBeResentFailsAsConsumed() {
        var completion = TransferCompletion(code: 65, url: url, metrics: TransferMetrics())
        completion.sendsOneShotBody = true
        guard case .failed(let error) = completion.outcome(finishingBody: { nil }) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.category == .requestBodyAlreadyConsumed)
    }

    @Test func mapsLibcurlsCodeWithItsErrorText() {
        var completion = TransferCompletion(code: 7, url: url, metrics: TransferMetrics())
        completion.errorText = "Failed to connect to 127.0.0.1 port 1"
        guard case .failed(let error) = completion.outcome(finishingBody: { nil }) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == 7)
        #expect(error.category == .cannotConnect)
    }

    @Test func saysWhenTheProxysCertificateFailed() {
        var completion = TransferCompletion(code: 60, url: url, metrics: TransferMetrics())
        completion.errorText = "SSL certificate problem"
        completion.describingProxyTrustFailure = { "proxy: \($0)" }
        guard case .failed(let error) = completion.outcome(finishingBody: { nil }) else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message.hasPrefix("proxy: SSL certificate problem"))
    }

    @Test func anExcessBodyAndThenADecodingFailureFailASuccess() {
        var completion = TransferCompletion(code: 0, url: url, metrics: TransferMetrics())
        completion.hasDeliveredHead = true
        let decoding = TransportError(category: .contentDecodingFailed, message: "truncated", url: url)
        #expect(describe(completion.outcome { decoding }) == "failed contentDecodingFailed - truncated")
        completion.excessBodyFailure = TransportError(category: .protocolViolation, message: "excess", url: url)
        #expect(describe(completion.outcome { decoding }) == "failed protocolViolation - excess")
    }

    @Test func anUnansweredChallengeIsTheResponse() {
        var completion = TransferCompletion(code: 0, url: url, metrics: TransferMetrics())
        completion.answeredChallenge = HTTPResponse(status: HTTPStatus(code: 401))
        #expect(describe(completion.outcome { nil }) == "completed with 401")
    }

    @Test func noHeadIsAProtocolViolation() {
        let completion = TransferCompletion(code: 0, url: url, metrics: TransferMetrics())
        #expect(
            describe(completion.outcome { nil })
                == "failed protocolViolation - the server closed the exchange without a complete response head"
        )
    }
}
