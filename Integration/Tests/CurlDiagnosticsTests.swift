import CourierCurl
import CourierDiagnostics
import CourierHTTP
import CourierSecurity
import CourierSecurityOpenSSL
import CourierTestSupport
import CourierTransport
import Foundation
import Testing

/// What a `CurlTransport` reports through `Configuration.diagnostics`: libcurl's notices, checks it
/// cannot make, and trust outcomes, each with the transfer's URL.
@Suite struct CurlDiagnosticsTests {
    static var hasFaultServer: Bool { CurlProtocolFaultTests.hasFaultServer }

    /// One transfer through a fresh transport whose diagnostics go to `handler`.
    func fetch(
        _ url: URL,
        _ handler: CollectingDiagnosticHandler,
        adjust: @escaping (inout CurlTransport.Configuration) -> Void = { _ in }
    ) async -> RecordedTransfer {
        let transport = CurlProtocolFaultTests.transport {
            $0.diagnostics = Diagnostics(handler: handler, label: "test.transport")
            adjust(&$0)
        }
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()
        return recorded
    }

    /// At `trace` the transport installs its tracing debug callback, which must still recognise the
    /// notice among the lines it forwards.
    @Test(
        .enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"),
        arguments: [DiagnosticLevel.warning, .trace]
    )
    func libcurlsExcessBodyNoticeReachesTheHandler(level: DiagnosticLevel) async throws {
        let url = try CurlProtocolFaultTests.url("/body-longer", overHTTP2: false)
        let handler = CollectingDiagnosticHandler(minimumLevel: level)
        let recorded = await fetch(url, handler) { $0.httpVersion = .http1_1 }
        #expect(recorded.error?.category == .protocolViolation)
        let notices = handler.entries(where: "curl.notice", is: "excessBody")
        #expect(notices.count == 1)
        let notice = try #require(notices.first)
        #expect(notice.level == .warning)
        #expect(notice.message == "libcurl noticed 10 bytes of body beyond Content-Length and dropped them")
        #expect(notice.metadata["excessBytes"] == "10")
        #expect(notice.metadata["url"] == url.absoluteString)
        #expect(notice.label == "test.transport")
        #expect(notice.source == "CourierCurl")
        #expect(notice.file == "CourierCurl/LibcurlNotice.swift")
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"))
    func aCloseDelimitedBodyReportsTheSkippedLengthCheck() async throws {
        let url = try CurlProtocolFaultTests.url("/close-delimited", overHTTP2: false)
        let handler = CollectingDiagnosticHandler(minimumLevel: .debug)
        let recorded = await fetch(url, handler)
        #expect(recorded.error == nil)
        #expect(recorded.body == Data("0123456789".utf8))
        let skipped = handler.entries(where: "check", is: "bodyLength")
        #expect(skipped.map(\.level) == [.debug])
        #expect(
            skipped.first?.message == "the body is delimited by the connection's close: its length cannot be checked"
        )
        #expect(skipped.first?.metadata["url"] == url.absoluteString)

        // A framed body has its length checked, so nothing is reported for it.
        let framed = CollectingDiagnosticHandler(minimumLevel: .debug)
        let ok = await fetch(try CurlProtocolFaultTests.url("/ok", overHTTP2: false), framed)
        #expect(ok.error == nil)
        #expect(framed.entries(where: "check", is: "bodyLength").isEmpty)
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"))
    func entriesBelowTheHandlersLevelAreNotDelivered() async throws {
        let handler = CollectingDiagnosticHandler(minimumLevel: .error)
        _ = await fetch(try CurlProtocolFaultTests.url("/body-longer", overHTTP2: false), handler)
        _ = await fetch(try CurlProtocolFaultTests.url("/close-delimited", overHTTP2: false), handler)
        #expect(handler.entries.isEmpty)
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func trustOutcomesAreReported() async throws {
        let url = try #require(CurlTestServers.https).adding("/small")
        let accepting = CollectingDiagnosticHandler(minimumLevel: .info)
        _ = await fetch(url, accepting) { $0.trustInstaller = OpenSSLTrustHook(evaluator: DefaultTrustEvaluator()) }
        let accepted = accepting.entries(where: "trust.decision", is: "accept")
        #expect(accepted.map(\.level) == [.info])
        #expect(accepted.first?.metadata["trust.leaf"] == "localhost")
        #expect(accepted.first?.metadata["url"] == url.absoluteString)

        let rejecting = CollectingDiagnosticHandler(minimumLevel: .info)
        let failed = await fetch(url, rejecting) {
            $0.trustInstaller = OpenSSLTrustHook(evaluator: RejectAllTrustEvaluator(reason: "the test says no"))
        }
        #expect(failed.error?.category == .serverTrustFailed)
        let rejected = rejecting.entries(where: "trust.decision", is: "reject")
        #expect(rejected.map(\.level) == [.warning])
        #expect(rejected.first?.message == "trust evaluation for \(url.host() ?? "-"): reject: the test says no")
    }
}
