import CourierHTTP
import CourierLocking
import CourierWebSocket
import Foundation
import Testing

@testable import CourierCLI

/// The conversation `courier ws` runs on an open connection: lines out, messages in, and who closes
/// when, against a scripted connection that echoes what it is sent.
@Suite struct WebSocketExchangeTests {
    /// An echo server's connection: each text sent comes back, a close is answered with `answer`,
    /// and the first `greeting` messages arrive before anything is sent.
    final class EchoConnection: WebSocketConnection {
        private struct State {
            var inbox: [WebSocketMessage] = []
            var waiting: CheckedContinuation<WebSocketMessage?, any Error>?
            var sent: [WebSocketMessage] = []
            var closes: [WebSocketCloseCode] = []
            var status: WebSocketClose?
            var finished = false
        }

        private let state = Lock(State())
        let answer: WebSocketClose
        let failure: WebSocketError?

        init(
            greeting: [WebSocketMessage] = [],
            answer: WebSocketClose = WebSocketClose(code: .normalClosure),
            failure: WebSocketError? = nil
        ) {
            self.answer = answer
            self.failure = failure
            state.withLock { $0.inbox = greeting }
        }

        var handshakeResponse: HTTPResponse { HTTPResponse(status: HTTPStatus(code: 101)) }
        var agreement: WebSocketHandshake.Agreement { WebSocketHandshake.Agreement() }
        var closeStatus: WebSocketClose? { state.withLock { $0.status } }
        var sent: [WebSocketMessage] { state.withLock { $0.sent } }
        var closes: [WebSocketCloseCode] { state.withLock { $0.closes } }

        var messages: WebSocketMessages {
            WebSocketMessages { () async throws(WebSocketError) -> WebSocketMessage? in
                do {
                    return try await self.receive()
                } catch let error as WebSocketError {
                    throw error
                } catch {
                    return nil
                }
            }
        }

        private func receive() async throws -> WebSocketMessage? {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<WebSocketMessage?, any Error>? = state.withLock { state in
                    if !state.inbox.isEmpty { return .success(state.inbox.removeFirst()) }
                    if state.finished { return failure.map { .failure($0) } ?? .success(nil) }
                    state.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        }

        private func deliver(_ message: WebSocketMessage?, finishing: Bool) {
            let waiting = state.withLock { state -> CheckedContinuation<WebSocketMessage?, any Error>? in
                if let message { state.inbox.append(message) }
                if finishing { state.finished = true }
                guard let waiting = state.waiting else { return nil }
                state.waiting = nil
                return waiting
            }
            guard let waiting else { return }
            let next: Result<WebSocketMessage?, any Error> = state.withLock { state in
                if !state.inbox.isEmpty { return .success(state.inbox.removeFirst()) }
                return failure.map { .failure($0) } ?? .success(nil)
            }
            waiting.resume(with: next)
        }

        func send(_ message: WebSocketMessage) async throws(WebSocketError) {
            let closing = state.withLock { state in
                state.sent.append(message)
                return !state.closes.isEmpty
            }
            if closing { throw .closedByServer(.normalClosure, reason: "") }
            deliver(message, finishing: false)
        }

        func ping() async throws(WebSocketError) -> Duration { .zero }

        func close(code: WebSocketCloseCode, reason: String) async {
            let first = state.withLock { state in
                state.closes.append(code)
                if state.status == nil { state.status = answer }
                return state.closes.count == 1
            }
            if first { deliver(nil, finishing: true) }
        }

        /// The server closes on its own.
        func serverCloses() {
            state.withLock { $0.status = answer }
            deliver(nil, finishing: true)
        }
    }

    final class Lines: LineSource {
        let lines: Lock<[String]>
        init(_ lines: [String]) { self.lines = Lock(lines) }
        func next() async -> String? { lines.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
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

    @Test func linesAreSentAndEchoesPrintedThenStdinsEndCloses() async throws {
        let connection = EchoConnection()
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: Lines(["one", "", "three"]),
            maximumMessages: nil
        )
        let outcome = await exchange.run()
        #expect(outcome == .closed(WebSocketClose(code: .normalClosure)))
        #expect(connection.sent == [.text("one"), .text(""), .text("three")])
        #expect(connection.closes == [.normalClosure])
        #expect(output.text == "one\n\nthree\n")
    }

    @Test func maximumMessagesClosesAfterTheNthAndPrintsNoMore() async throws {
        let connection = EchoConnection(greeting: [.text("a"), .binary([1]), .text("c"), .text("d")])
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: nil,
            maximumMessages: 2
        )
        let outcome = await exchange.run()
        #expect(outcome == .closed(WebSocketClose(code: .normalClosure)))
        #expect(connection.closes == [.normalClosure])
        #expect(output.text == "a\nAQ==\n")
    }

    @Test func withoutStdinTheServerDecidesTheEnd() async throws {
        let code = WebSocketCloseCode(rawValue: 4000)
        let connection = EchoConnection(greeting: [.text("hello")], answer: WebSocketClose(code: code, reason: "bye"))
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: nil,
            maximumMessages: nil
        )
        Task {
            try await Task.sleep(for: .milliseconds(50))
            connection.serverCloses()
        }
        let outcome = await exchange.run()
        #expect(outcome == .closed(WebSocketClose(code: code, reason: "bye")))
        #expect(connection.closes.isEmpty)
        #expect(output.text == "hello\n")
    }

    @Test func aFailedConnectionIsTheOutcome() async throws {
        let violation = WebSocketError.protocolViolation(.protocolError, reason: "a masked frame")
        let connection = EchoConnection(greeting: [.text("x")], failure: violation)
        let output = try Output()
        let exchange = WebSocketExchange(
            connection: connection,
            printer: output.printer,
            lines: Lines([]),
            maximumMessages: nil
        )
        let outcome = await exchange.run()
        #expect(outcome == .failed(violation))
        #expect(output.text == "x\n")
    }

    @Test func anOutputFailureStopsTheExchange() async throws {
        let connection = EchoConnection(greeting: [.text("x")])
        let printer = WebSocketMessagePrinter(descriptor: -1, binaryDescriptor: nil)
        let exchange = WebSocketExchange(connection: connection, printer: printer, lines: nil, maximumMessages: nil)
        guard case .outputFailed(let message) = await exchange.run() else {
            Issue.record("expected an output failure")
            return
        }
        #expect(message.hasPrefix("cannot write output"))
    }
}
