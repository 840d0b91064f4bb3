import CourierHTTP
import CourierSessionCore
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@testable import CourierCLI

/// What `courier ws` writes: messages on stdout (binary as base64 or to a file), the handshake's
/// heads with `--verbose`, and one plain line for each way a WebSocket can end badly.
@Suite struct WebSocketOutputTests {
    let messages = WebSocketErrorMessages(messages: ErrorMessages(), host: "127.0.0.1:9")

    static func response(_ code: Int, _ headers: [(String, String)] = []) -> HTTPResponse {
        var fields = HTTPHeaders()
        for (name, value) in headers { try? fields.add(name: name, value: value) }
        return HTTPResponse(status: HTTPStatus(code: code), headers: fields)
    }

    @Test func messagesBecomeLines() {
        #expect(WebSocketMessagePrinter.line(for: .text("héllo")) == Data("héllo\n".utf8))
        #expect(WebSocketMessagePrinter.line(for: .text("")) == Data("\n".utf8))
        #expect(WebSocketMessagePrinter.line(for: .binary([0, 1, 2, 255])) == Data("AAEC/w==\n".utf8))
    }

    @Test func binaryMessagesAreAppendedToTheBinaryFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ws-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: path) }
        try Data([9]).write(to: path)
        let textPath = path.appendingPathExtension("txt")
        defer { try? FileManager.default.removeItem(at: textPath) }
        let binary = try WebSocketMessagePrinter.openBinaryFile(path.path)
        let text = try WebSocketMessagePrinter.openBinaryFile(textPath.path)
        let printer = WebSocketMessagePrinter(descriptor: text, binaryDescriptor: binary)
        try printer.write(.binary([1, 2]))
        try printer.write(.text("between"))
        try printer.write(.binary([3]))
        close(binary)
        close(text)
        #expect(try Data(contentsOf: path) == Data([9, 1, 2, 3]))
        #expect(try String(contentsOf: textPath, encoding: .utf8) == "between\n")
        #expect(throws: CommandFailure.self) { try WebSocketMessagePrinter.openBinaryFile("/nonexistent/dir/x") }
    }

    @Test func normalClosesAreSilentAndOthersSayCodeAndReason() {
        #expect(messages.closed(WebSocketClose(code: .normalClosure)) == nil)
        #expect(messages.closed(WebSocketClose(code: .goingAway, reason: "restart")) == nil)
        #expect(
            messages.closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "closing with 4000"))
                == "127.0.0.1:9 closed the WebSocket with 4000: closing with 4000"
        )
        #expect(
            messages.closed(WebSocketClose(code: .policyViolation))
                == "127.0.0.1:9 closed the WebSocket with 1008 (policy violation)"
        )
        #expect(messages.closed(WebSocketClose(code: .abnormalClosure))?.contains("without a WebSocket close") == true)
        #expect(messages.closed(WebSocketClose(code: nil))?.contains("without a status code") == true)
        #expect(messages.closed(nil)?.contains("without a status code") == true)
    }

    @Test func refusedUpgradesNameTheStatusAndExitAsCheckStatusDoes() {
        let refused = WebSocketError.handshakeRefused(Self.response(403))
        #expect(messages.plain(refused).hasPrefix("127.0.0.1:9 refused the WebSocket upgrade: HTTP 403"))
        #expect(WebSocketErrorMessages.status(refused) == 4)
        #expect(WebSocketErrorMessages.status(.handshakeRefused(Self.response(503))) == 5)
        #expect(WebSocketErrorMessages.status(.handshakeRefused(Self.response(200))) == 1)
        let redirect = WebSocketError.redirectNotFollowed(Self.response(302, [("Location", "/echo")]))
        #expect(messages.plain(redirect).contains("(HTTP 302 Found) to /echo"), "\(messages.plain(redirect))")
        #expect(WebSocketErrorMessages.status(redirect) == 3)
    }

    @Test func everyFailureHasOnePlainLine() {
        let failures: [WebSocketError] = [
            .invalidRequest("no host"), .handshakeRefused(Self.response(401)),
            .redirectNotFollowed(Self.response(301)), .invalidHandshakeResponse(.acceptHeader, Self.response(101)),
            .protocolViolation(.protocolError, reason: "a masked frame from the server"), .messageTooBig(limit: 10),
            .frameTooBig(length: 20, limit: 10), .closedByServer(WebSocketCloseCode(rawValue: 4001), reason: "bye"),
            .closeTimedOut, .transport(TransportError(category: .cannotConnect, message: "Connection refused")),
        ]
        for failure in failures {
            let text = messages.plain(failure)
            #expect(!text.contains("\n"), "\(text)")
            #expect(!text.contains("WebSocketError"), "\(text)")
            #expect(!text.isEmpty)
        }
        #expect(messages.plain(.protocolViolation(.protocolError, reason: "a masked frame")).contains("1002"))
        #expect(messages.plain(.messageTooBig(limit: 10)).contains("--max-message-size"))
        #expect(
            messages.plain(.closedByServer(WebSocketCloseCode(rawValue: 4001), reason: "bye")).hasSuffix("4001: bye")
        )
    }

    @Test func transportFailuresAreWordedAsForTheHTTPCommands() {
        let trust = TransportError(
            category: .serverTrustFailed,
            message: "SSL certificate problem: unable to get local issuer certificate"
        )
        let expected = ErrorMessages().transport(.serverTrustFailed, host: "127.0.0.1:9", message: trust.message)
        #expect(messages.plain(.transport(trust)) == expected)
        let timeout = TransportError(category: .timedOut, message: "Connection timed out after 2000 ms")
        #expect(WebSocketErrorMessages.status(.transport(timeout)) == ExitStatus.timedOut)

        // A session error carrying the WebSocket failure is worded by it; another by ErrorMessages.
        let refused = SessionError(
            kind: .serialization,
            message: "refused",
            failingURL: URL(string: "http://127.0.0.1:9/refuse"),
            underlying: WebSocketError.handshakeRefused(Self.response(403))
        )
        #expect(messages.plain(refused).contains("refused the WebSocket upgrade: HTTP 403"))
        #expect(WebSocketErrorMessages.status(refused) == 4)
        let transport = SessionError(
            kind: .transport(.serverTrustFailed),
            message: trust.message,
            failingURL: URL(string: "https://127.0.0.1:9/echo"),
            underlying: trust
        )
        #expect(messages.plain(transport) == expected)
        #expect(WebSocketErrorMessages.status(transport) == ExitStatus.error)
        let verbose = WebSocketErrorMessages(messages: ErrorMessages(verbose: true), host: "127.0.0.1:9")
        #expect(verbose.lines(refused).count == 2)
        #expect(messages.lines(refused).count == 1)
    }

    @Test func theVerboseRequestHeadIsTheHandshakeWithTheRequestsFields() throws {
        var request = HTTPRequest(url: try #require(URL(string: "https://127.0.0.1:9/chat?room=1")))
        try request.headers.add(name: "Authorization", value: "Bearer abc")
        var configuration = WebSocketConfiguration()
        configuration.subprotocols = ["chat.v2"]
        let head = WebSocketHeads.handshakeRequest(request, configuration: configuration)
        #expect(head.url.absoluteString == "https://127.0.0.1:9/chat?room=1")
        #expect(head.headers["Upgrade"] == "websocket")
        #expect(head.headers["Sec-WebSocket-Key"] == WebSocketHeads.keyPlaceholder)
        #expect(head.headers["Sec-WebSocket-Protocol"] == "chat.v2")
        #expect(head.headers["Authorization"] == "Bearer abc")
    }
}
