import CourierWebSocket
import Foundation
import Testing

@testable import CourierCLI

/// `courier ws`'s command line: the WebSocket options, the shared options handed to the request
/// grammar, and what it refuses.
@Suite struct WebSocketGrammarTests {
    func parse(_ words: [String]) throws(UsageError) -> WebSocketCommandLine {
        try WebSocketGrammar.parse(words, registry: CourierCommand.registry)
    }

    func refusal(_ words: [String]) -> String? {
        do {
            _ = try parse(words)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func webSocketSchemesAreReadAsTheirHTTPEquivalents() throws {
        #expect(try parse(["ws://127.0.0.1:9/echo"]).request.url == "http://127.0.0.1:9/echo")
        #expect(try parse(["WSS://example.com/chat?room=1"]).request.url == "https://example.com/chat?room=1")
        #expect(try parse(["https://example.com/chat"]).request.url == "https://example.com/chat")
        #expect(try parse([":8080/chat"]).request.url == "http://localhost:8080/chat")
        #expect(refusal(["ftp://example.com/"]) == "not a ws://, wss://, http:// or https:// URL: ftp://example.com/")
    }

    @Test func webSocketOptionsMakeTheConfiguration() throws {
        let line = try parse([
            "wss://example.com/chat", "--subprotocol", "chat.v2", "--subprotocol=chat.v1", "--no-compression",
            "--max-message-size=64k", "--ping-interval", "2.5", "--binary-to", "out.bin", "--max-messages=3",
        ])
        let configuration = line.configuration
        #expect(configuration.subprotocols == ["chat.v2", "chat.v1"])
        #expect(configuration.perMessageDeflate == nil)
        #expect(configuration.maximumMessageSize == 65536)
        #expect(configuration.maximumFrameSize == 65536)
        #expect(configuration.pingInterval == .milliseconds(2500))
        #expect(line.binaryFile == "out.bin")
        #expect(line.maximumMessages == 3)
        #expect(line.readsStandardInput)

        let defaults = try parse(["ws://example.com/"]).configuration
        #expect(defaults == WebSocketConfiguration())
        #expect(defaults.perMessageDeflate != nil)
    }

    @Test func sizesTakeBinaryUnits() throws {
        #expect(try WebSocketGrammar.size("100", "--max-message-size") == 100)
        #expect(try WebSocketGrammar.size("16M", "--max-message-size") == 16 << 20)
        #expect(try WebSocketGrammar.size("1g", "--max-message-size") == 1 << 30)
        for bad in ["0", "-1", "k", "1.5M", "12q", ""] {
            #expect(
                refusal(["ws://h/", "--max-message-size", bad])?.hasPrefix("--max-message-size takes") == true,
                "\(bad)"
            )
        }
    }

    @Test func sharedOptionsReachTheRequestGrammar() throws {
        let line = try parse([
            "-v", "wss://example.com/chat", "Authorization:Bearer abc", "room==1", "-H", "X-Trace: 7", "--proxy",
            "http://proxy:3128", "--pin-key", "sha256//AAAA", "--cacert", "ca.pem", "--timeout=3",
            "--connect-timeout", "2", "-I",
        ])
        let request = line.request
        #expect(request.verbose)
        #expect(request.publicKeyPins == ["sha256//AAAA"])
        #expect(request.caFile == "ca.pem")
        #expect(request.proxy == "http://proxy:3128")
        #expect(request.timeout == .seconds(3))
        #expect(request.connectTimeout == .seconds(2))
        #expect(request.items.contains(.header(name: "Authorization", value: "Bearer abc")))
        #expect(request.items.contains(.query(name: "room", value: "1")))
        #expect(request.items.contains(.header(name: "X-Trace", value: " 7")))
        #expect(!line.readsStandardInput)
        // stdin is never the handshake's body, with or without -I.
        #expect(line.request.ignoresStdin)
        #expect(try parse(["ws://h/"]).request.ignoresStdin)
        // The shared checks stay the request grammar's.
        #expect(refusal(["ws://h/", "-k", "--pin-key", "sha256//AAAA"])?.contains("conflict") == true)
        #expect(refusal(["ws://h/", "--pin-key", "AAAA"])?.hasPrefix("--pin-key takes") == true)
    }

    @Test func whatHasNoMeaningForAWebSocketIsRefused() {
        #expect(refusal(["ws://h/", "--form"]) == "unknown option --form")
        #expect(refusal(["ws://h/", "--follow"]) == "unknown option --follow")
        #expect(refusal(["ws://h/", "-o", "file"]) == "unknown option -o")
        #expect(refusal(["ws://h/", "name=value"])?.hasPrefix("body items") == true)
        #expect(refusal(["GET", "ws://h/"])?.contains("takes no method") == true)
        #expect(refusal([]) == "missing URL")
        #expect(refusal(["ws://h/", "--max-messages", "0"])?.hasPrefix("--max-messages takes") == true)
        #expect(refusal(["ws://h/", "--ping-interval", "never"])?.hasPrefix("--ping-interval takes") == true)
    }

    @Test func helpIsAskedForWithEitherSpelling() throws {
        #expect(try parse(["--help"]).showsHelp)
        #expect(try parse(["ws://h/", "-h"]).showsHelp)
        #expect(WebSocketHelp.text.contains("--binary-to"))
    }

    @Test func theCommandIsRegisteredAndCompleted() throws {
        let registry = CourierCommand.registry
        #expect(registry.command("ws") != nil)
        let script = try #require(ShellCompletion.script(for: "bash", reservedWords: registry.commands.map(\.word)))
        for option in WebSocketGrammar.flags.union(WebSocketGrammar.options).subtracting(["--help"]) {
            #expect(script.contains(option), "\(option)")
        }
        #expect(script.contains(" ws "))
    }
}
