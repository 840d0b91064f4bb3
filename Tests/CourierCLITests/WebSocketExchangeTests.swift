import CourierHTTP
import CourierTesting
import CourierWebSocket
import Foundation
import Testing

@testable import CourierCLI

/// The conversation `courier ws` runs on an open connection: lines out, messages in, and who closes
/// when, against CourierTesting's scripted WebSocket.
@Suite struct WebSocketExchangeTests {
    actor Lines: LineSource {
        var lines: [String]
        init(_ lines: [String]) { self.lines = lines }
        func next() async -> String? { lines.isEmpty ? nil : lines.removeFirst() }
    }

    /// A printer into a temporary file, and what it wrote.
    struct Output {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ws-\(UUID().uuidString)")
        let printer: WebSocketMessagePrinter

        init() throws {
            printer = WebSocketMessagePrinter(
                descriptor: try WebSocketMessagePrinter.openBinaryFile(url.path),
                binaryDescriptor: nil
            )
        }

        var text: String {
            close(printer.descriptor)
            defer { try? FileManager.default.removeItem(at: url) }
            return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        }
    }

    @Test func linesAreSentThenStdinsEndClosesNormally() async throws {
        let connection = MockWebSocket(incoming: [.text("welcome"), .binary([0, 255])])
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: Lines(["one", "", "three"]),
            maximumMessages: nil
        )
        let outcome = await exchange.run()
        #expect(outcome == .closed(WebSocketClose(code: .normalClosure)))
        #expect(connection.sentMessages == [.text("one"), .text(""), .text("three")])
        #expect(connection.closeRequest?.code == .normalClosure)
        #expect(output.text == "welcome\nAP8=\n")
    }

    @Test func maximumMessagesClosesAfterTheNthAndPrintsNoMore() async throws {
        let connection = MockWebSocket(incoming: [.text("a"), .binary([1]), .text("c"), .text("d")])
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: Lines(["sent, but no close at the end"]),
            maximumMessages: 2
        )
        let outcome = await exchange.run()
        #expect(outcome == .closed(WebSocketClose(code: .normalClosure)))
        #expect(connection.closeRequest?.code == .normalClosure)
        #expect(output.text == "a\nAQ==\n")
    }

    @Test func withoutStdinTheServerDecidesTheEnd() async throws {
        let close = WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "bye")
        let connection = MockWebSocket(incoming: [.text("hello")], then: .closedByServer(close))
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: nil,
            maximumMessages: nil
        )
        let outcome = await exchange.run()
        #expect(outcome == .closed(close))
        #expect(connection.closeRequest == nil)
        #expect(connection.sentMessages.isEmpty)
        #expect(output.text == "hello\n")
    }

    @Test func aFailedConnectionIsTheOutcome() async throws {
        let violation = WebSocketError.protocolViolation(.protocolError, reason: "a masked frame")
        let connection = MockWebSocket(incoming: [.text("x")], then: .failed(violation))
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: nil,
            maximumMessages: nil
        )
        let outcome = await exchange.run()
        #expect(outcome == .failed(violation))
        #expect(output.text == "x\n")
    }

    @Test func anOutputFailureStopsTheExchange() async throws {
        let connection = MockWebSocket(incoming: [.text("x")])
        let printer = WebSocketMessagePrinter(descriptor: -1, binaryDescriptor: nil)
        let exchange = WebSocketExchange(connection: connection, printer: printer, lines: nil, maximumMessages: nil)
        guard case .outputFailed(let message) = await exchange.run() else {
            Issue.record("expected an output failure")
            return
        }
        #expect(message.hasPrefix("cannot write output"))
    }
}
