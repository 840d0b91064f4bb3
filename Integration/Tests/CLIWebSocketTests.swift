import Foundation
import Testing

/// `courier ws` against `ws_server.py` on loopback: echoes over ws and wss, a subprotocol, binary
/// messages as base64 and to a file, a refused upgrade, a server's close code, tinyproxy, and pins.
@Suite struct CLIWebSocketTests {
    static var ws: String? { CurlTestServers.value("COURIER_WS_URL") }
    static var wss: String? { CurlTestServers.value("COURIER_WSS_URL") }
    static var ready: Bool { CLIProcess.binary != nil && ws != nil }
    static var readyWithTLS: Bool { ready && wss != nil && CurlTestServers.caFile != nil }

    func ws(_ arguments: [String], input: String? = nil) async throws -> CLIResult {
        try await CLIProcess.run(
            ["ws"] + arguments,
            input: input.map { Data($0.utf8) },
            inputIsPipe: input != nil,
            timeout: .seconds(60)
        )
    }

    @Test(.enabled(if: readyWithTLS, "needs the courier binary, COURIER_WS_URL, COURIER_WSS_URL and TEST_CA_FILE"))
    func linesAreEchoedOverWsAndWss() async throws {
        let ca = try #require(CurlTestServers.caFile)
        for base in [try #require(Self.ws), try #require(Self.wss)] {
            let result = try await ws(
                ["--max-messages=3", "--cacert", ca, base + "/echo"],
                input: "one\ntwo words\nthree\n"
            )
            #expect(result.status == 0, "\(base): \(result.standardError)")
            #expect(result.outputText == "one\ntwo words\nthree\n", "\(base)")
            #expect(result.standardError.isEmpty, "\(result.standardError)")
        }
        // Without --max-messages the end of stdin closes (1000): a normal end, whatever the
        // server managed to echo before it.
        let atEnd = try await ws(["--no-compression", try #require(Self.ws) + "/echo"], input: "last\n")
        #expect(atEnd.status == 0, "\(atEnd.standardError)")
        #expect(["", "last\n"].contains(atEnd.outputText))
    }

    @Test(.enabled(if: ready, "needs the courier binary and COURIER_WS_URL"))
    func aSubprotocolIsOfferedAndSelected() async throws {
        let base = try #require(Self.ws)
        let chosen = try await ws([
            "-I", "--max-messages=1", "--subprotocol=other", "--subprotocol", "chat.v2", base + "/subprotocol",
        ])
        #expect(chosen.status == 0, "\(chosen.standardError)")
        #expect(chosen.outputText == "chat.v2\n")
        let none = try await ws(["-I", "--max-messages=1", base + "/subprotocol"])
        #expect(none.outputText == "\n")

        // --verbose: both heads on stderr, stdout keeps only the messages.
        let verbose = try await ws(["-I", "-v", "--max-messages=1", "--subprotocol=chat.v2", base + "/subprotocol"])
        #expect(verbose.outputText == "chat.v2\n")
        #expect(verbose.standardError.contains("Sec-WebSocket-Protocol: chat.v2\n"), "\(verbose.standardError)")
        #expect(verbose.standardError.contains("HTTP/1.1 101 Switching Protocols\n"), "\(verbose.standardError)")
    }

    @Test(.enabled(if: ready, "needs the courier binary and COURIER_WS_URL"))
    func binaryMessagesArePrintedAsBase64OrAppendedToAFile() async throws {
        let base = try #require(Self.ws)
        let bytes = Data((0..<1000).map { UInt8($0 % 256) })
        let printed = try await ws(["-I", "--max-messages=1", base + "/big?size=1000"])
        #expect(printed.status == 0, "\(printed.standardError)")
        #expect(printed.outputText == bytes.base64EncodedString() + "\n")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ws-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let saved = try await ws(["-I", "--max-messages=1", "--binary-to", file.path, base + "/big?size=1000"])
        #expect(saved.status == 0, "\(saved.standardError)")
        #expect(saved.outputText.isEmpty)
        #expect(try Data(contentsOf: file) == bytes)
        // A second run appends.
        _ = try await ws(["-I", "--max-messages=1", "--binary-to", file.path, base + "/big?size=1000"])
        #expect(try Data(contentsOf: file) == bytes + bytes)

        let tooBig = try await ws(["-I", "--max-message-size=512", base + "/big?size=1000"])
        #expect(tooBig.status == 1)
        #expect(tooBig.standardError.contains("over 512 bytes"), "\(tooBig.standardError)")
    }

    @Test(.enabled(if: ready, "needs the courier binary and COURIER_WS_URL"))
    func aRefusedUpgradeAndAServersCloseCodeExitNonZeroWithOneLine() async throws {
        let base = try #require(Self.ws)
        let refused = try await ws(["-I", base + "/refuse"])
        #expect(refused.status == 4)
        #expect(
            refused.standardError.hasSuffix("refused the WebSocket upgrade: HTTP 403 Forbidden\n"),
            "\(refused.standardError)"
        )
        #expect(refused.standardError.split(separator: "\n").count == 1)

        // -a and -A reach the handshake as they reach an HTTP request.
        let unauthorized = try await ws(["-I", base + "/auth"])
        #expect(unauthorized.status == 4)
        #expect(unauthorized.standardError.contains("HTTP 401"), "\(unauthorized.standardError)")
        let authorized = try await ws(
            ["-A", "bearer", "-a", "good", "--max-messages=1", base + "/auth"],
            input: "in\n"
        )
        #expect(authorized.status == 0, "\(authorized.standardError)")
        #expect(authorized.outputText == "in\n")

        let closed = try await ws(["-I", base + "/close/4000"])
        #expect(closed.status == 1)
        #expect(
            closed.standardError.contains("closed the WebSocket with 4000: closing with 4000"),
            "\(closed.standardError)"
        )
        let goingAway = try await ws(["-I", base + "/close/1001"])
        #expect(goingAway.status == 0, "\(goingAway.standardError)")

        let verbose = try await ws(["-I", "-v", base + "/refuse"])
        #expect(verbose.standardError.contains("GET /refuse HTTP/1.1\n"), "\(verbose.standardError)")
        #expect(verbose.standardError.contains("Upgrade: websocket\n"))
        #expect(verbose.standardError.contains("403 Forbidden"))
        #expect(verbose.outputText.isEmpty)
    }

    @Test(.enabled(if: readyWithTLS && CurlTestServers.proxy != nil, "needs the WebSocket servers and TEST_PROXY_URL"))
    func throughTinyproxyOverWsAndWss() async throws {
        let ca = try #require(CurlTestServers.caFile)
        let proxy = try #require(CurlTestServers.proxy)
        for base in [try #require(Self.ws), try #require(Self.wss)] {
            let result = try await ws(
                ["--proxy", proxy, "--cacert", ca, "--max-messages=2", base + "/echo"],
                input: "via\nproxy\n"
            )
            #expect(result.status == 0, "\(base): \(result.standardError)")
            #expect(result.outputText == "via\nproxy\n", "\(base)")
        }
    }

    @Test(.enabled(if: readyWithTLS, "needs the courier binary, COURIER_WSS_URL and TEST_CA_FILE"))
    func aPinnedWssIsAcceptedAndAWrongPinRefused() async throws {
        let ca = try #require(CurlTestServers.caFile)
        let url = try #require(Self.wss) + "/echo"
        let serverCertificate = try #require(CurlTestServers.value("TEST_SERVER_CERT"))
        let other = try #require(CurlTestServers.value("TEST_OTHER_CA_FILE"))
        let pinned = try await ws(
            [
                "--cacert", ca, "--pin-key", try await CLITrustTests().pin(of: serverCertificate), "--max-messages=1",
                url,
            ],
            input: "pinned\n"
        )
        #expect(pinned.status == 0, "\(pinned.standardError)")
        #expect(pinned.outputText == "pinned\n")

        let wrong = try await ws(
            ["--cacert", ca, "--pin-key", try await CLITrustTests().pin(of: other), url],
            input: "never sent\n"
        )
        #expect(wrong.status == 1)
        #expect(wrong.standardError.contains("certificate is not trusted"), "\(wrong.standardError)")
        #expect(wrong.outputText.isEmpty)

        let untrusted = try await ws(["-I", url])
        #expect(untrusted.status == 1)
        #expect(untrusted.standardError.contains("--verify=CA_FILE"), "\(untrusted.standardError)")
    }
}
