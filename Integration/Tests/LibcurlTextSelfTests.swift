import CourierDiagnostics
import CourierHTTP
import CourierTestSupport
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

/// Provokes every libcurl message the transport reads (`LibcurlText`) from the libcurl it runs on,
/// and checks that the message itself arrived, not only the outcome: a reworded message in another
/// release fails here by name instead of turning a protocol check off without a sound.
@Suite(.serialized) struct LibcurlTextSelfTests {
    /// A fault-server response that makes libcurl write the text, and where the text shows up.
    struct Provocation {
        let path: String
        let overHTTP2: Bool
        /// The `CURLcode` whose error detail carries the text; nil for a debug line.
        let code: Int?
        /// The category the transport derives from the text.
        let category: TransportError.Category
    }

    /// Exhaustive, so a new `LibcurlText` case cannot go without a self-test.
    static func provocation(for text: LibcurlText) -> Provocation {
        switch text {
        case .excessBody: Provocation(path: "/body-longer", overHTTP2: false, code: nil, category: .protocolViolation)
        case .goaway: Provocation(path: "/goaway", overHTTP2: true, code: nil, category: .protocolViolation)
        case .chunkedEncoding:
            Provocation(path: "/bad-chunk-size", overHTTP2: false, code: 56, category: .protocolViolation)
        case .tooLargeResponseHeaders:
            Provocation(path: "/many-headers", overHTTP2: false, code: 56, category: .limitExceeded)
        case .http2TransferClosed:
            Provocation(path: "/oversized-frame", overHTTP2: true, code: 18, category: .protocolViolation)
        }
    }

    @Test(
        .enabled(if: CurlProtocolFaultTests.hasFaultServer, "FAULT_HTTP_URL, FAULT_H2_URL or TEST_CA_FILE not set"),
        arguments: LibcurlText.allCases
    )
    func libcurlStillWritesTheText(_ text: LibcurlText) async throws {
        let provocation = Self.provocation(for: text)
        let handler = CollectingDiagnosticHandler(minimumLevel: .trace)
        let transport = CurlProtocolFaultTests.transport {
            $0.diagnostics = Diagnostics(handler: handler, label: "test.libcurl-text")
            if !provocation.overHTTP2 { $0.httpVersion = .http1_1 }
            // Above libcurl's own 300 KiB head limit, whose message is the one under test (and
            // above `/many-headers`' 3,000 fields, which Courier's count would refuse first).
            $0.maximumHeaderSize = 1 << 20
            $0.maximumHeaderCount = 10_000
        }
        let url = try CurlProtocolFaultTests.url(provocation.path, overHTTP2: provocation.overHTTP2)
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()
        let error = try #require(recorded.error, "\(provocation.path) completed")
        #expect(error.category == provocation.category, "\(error)")
        if let code = provocation.code {
            #expect(error.code == code, "\(error)")
            #expect(text.occurs(in: error.message), "libcurl's message was: \(error.message)")
        } else {
            let notice = text == .excessBody ? "excessBody" : "goaway"
            #expect(handler.entries(where: "curl.notice", is: notice).count == 1, "\(handler.entries.map(\.message))")
        }
        #expect(handler.entries(where: "check", is: "libcurlText").isEmpty)
    }
}
