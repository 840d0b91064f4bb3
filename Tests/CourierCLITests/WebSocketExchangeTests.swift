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

    /// Runs an exchange on `connection`, printing into a temporary file; the outcome and the text.
    func run(
        _ connection: MockWebSocket,
        lines: [String]? = nil,
        maximumMessages: Int? = nil
    ) async throws -> (WebSocketExchange.Outcome, String) {
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: lines.map(Lines.init),
            maximumMessages: maximumMessages
        )
        let outcome = await exchange.run()
        return (outcome, output.text)
    }

    @Test func linesAreSentThenStdinsEndClosesNormally() async throws {
        let connection = MockWebSocket(incoming: [.text("welcome"), .binary([0, 255])])
        let (outcome, text) = try await run(connection, lines: ["one", "", "three"])
        #expect(outcome == .closed(WebSocketClose(code: .normalClosure)))
        #expect(connection.sentMessages == [.text("one"), .text(""), .text("three")])
        #expect(connection.closeRequest?.code == .normalClosure)
        #expect(text == "welcome\nAP8=\n")
    }

    @Test func maximumMessagesClosesAfterTheNthAndPrintsNoMore() async throws {
        let connection = MockWebSocket(incoming: [.text("a"), .binary([1]), .text("c"), .text("d")])
        let (outcome, text) = try await run(connection, lines: ["sent, but no close at the end"], maximumMessages: 2)
        #expect(outcome == .closed(WebSocketClose(code: .normalClosure)))
        #expect(connection.closeRequest?.code == .normalClosure)
        #expect(text == "a\nAQ==\n")
    }

    @Test func withoutStdinTheServerDecidesTheEnd() async throws {
        let close = WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "bye")
        let connection = MockWebSocket(incoming: [.text("hello")], then: .closedByServer(close))
        let (outcome, text) = try await run(connection)
        #expect(outcome == .closed(close))
        #expect(connection.closeRequest == nil)
        #expect(connection.sentMessages.isEmpty)
        #expect(text == "hello\n")
    }

    @Test func aFailedConnectionIsTheOutcome() async throws {
        let violation = WebSocketError.protocolViolation(.protocolError, reason: "a masked frame")
        let connection = MockWebSocket(incoming: [.text("x")], then: .failed(violation))
        let (outcome, text) = try await run(connection)
        #expect(outcome == .failed(violation))
        #expect(text == "x\n")
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
