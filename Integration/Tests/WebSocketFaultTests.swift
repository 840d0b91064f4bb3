import CourierCurl
import CourierHTTP
import CourierTransport
import CourierWebSocket
import CourierWebSocketEngine
import Foundation
import Testing

/// Every violation of `ws_fault_server.py`: the client fails the connection with the close code
/// RFC 6455 names, and the server's record shows the code the client actually sent.
@Suite struct WebSocketFaultTests {
    static var hasServer: Bool { WebSocketTestServers.fault != nil }

    /// The fault server's record of the connection opened with `?id=id`.
    static func closeRecord(_ id: String, transport: CurlTransport) async throws -> [String: Any] {
        let base = try #require(
            WebSocketTestServers.fault?.absoluteString.replacingOccurrences(of: "ws://", with: "http://")
        )
        let url = try #require(URL(string: "\(base)/closes/\(id)?wait=15"))
        let recorded = await CourierIntegrationTests.record(transport.startTransfer(HTTPRequest(url: url)))
        #expect(recorded.response?.status.code == 200, "no record for \(id)")
        let json = try JSONSerialization.jsonObject(with: recorded.body)
        return try #require(json as? [String: Any])
    }

    /// Opens `path` on the fault server with a fresh id; returns the messages, the failure and the record.
    static func run(
        _ path: String,
        configuration: WebSocketConfiguration = WebSocketConfiguration()
    ) async throws -> (messages: [WebSocketMessage], error: WebSocketError?, record: [String: Any]) {
        let id = "engine-\(UUID().uuidString.prefix(8))"
        let transport = CurlTestServers.transport()
        let base = try #require(WebSocketTestServers.fault)
        let separator = path.contains("?") ? "&" : "?"
        var request = HTTPRequest(url: try #require(URL(string: base.absoluteString + path + separator + "id=" + id)))
        request.timeout = .seconds(20)
        var messages: [WebSocketMessage] = []
        var failure: WebSocketError?
        do {
            let socket = try await WebSocketConnector().connect(request, configuration: configuration, over: transport)
            do {
                for try await message in socket.messages { messages.append(message) }
            } catch {
                failure = error
            }
            await socket.close()
        } catch {
            failure = error
        }
        let record = try await closeRecord(id, transport: transport)
        await transport.shutdown()
        return (messages, failure, record)
    }

    static let frameFaults: [(String, Int)] =
        [
            ("/masked", 1002), ("/rsv1", 1002), ("/rsv2", 1002), ("/rsv3", 1002), ("/control-too-long", 1002),
            ("/fragmented-control", 1002), ("/orphan-continuation", 1002), ("/interleaved-data", 1002),
            ("/invalid-utf8", 1007), ("/invalid-utf8-split", 1007), ("/close-one-byte", 1002),
            ("/close-invalid-utf8", 1007), ("/length-top-bit", 1002),
        ]
        + [3, 4, 5, 6, 7, 11, 12, 13, 14, 15].map { ("/opcode/\($0)", 1002) }
        + [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535].map { ("/close-code/\($0)", 1002) }

    @Test(.enabled(if: hasServer, "COURIER_WS_FAULT_URL not set"), arguments: frameFaults)
    func violationIsAnsweredWithItsCloseCode(path: String, code: Int) async throws {
        var configuration = WebSocketConfiguration()
        configuration.perMessageDeflate = nil
        let (messages, error, record) = try await Self.run(path, configuration: configuration)
        #expect(messages.isEmpty, "\(path)")
        #expect(error?.closeCode?.rawValue == UInt16(code), "\(path): \(String(describing: error))")
        #expect(record["close_received"] as? Bool == true, "\(path): \(record)")
        #expect(record["close_code"] as? Int == code, "\(path): \(record)")
        let frames = record["frames"] as? [[String: Any]] ?? []
        #expect(frames.allSatisfy { $0["masked"] as? Bool == true })
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_FAULT_URL not set"))
    func oversizeFrameIsAnsweredWith1009() async throws {
        var configuration = WebSocketConfiguration()
        // Small enough that the server's write fits the socket buffers: it then reads the close.
        configuration.maximumMessageSize = 64 << 10
        configuration.maximumFrameSize = 64 << 10
        let (_, error, record) = try await Self.run("/oversize?size=131072", configuration: configuration)
        #expect(error?.closeCode == .messageTooBig, "\(String(describing: error))")
        #expect(record["close_code"] as? Int == 1009, "\(record)")
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_FAULT_URL not set"), arguments: ["/ok", "/valid-utf8-split"])
    func validSequencesCloseCleanly(path: String) async throws {
        let (messages, error, record) = try await Self.run(path)
        #expect(error == nil, "\(String(describing: error))")
        #expect(messages == [.text(path == "/ok" ? "ok" : "a€b")])
        #expect(record["close_code"] as? Int == 1000, "\(record)")
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_FAULT_URL not set"))
    func pingsBetweenFragmentsAreAnsweredInOrder() async throws {
        let id = "engine-\(UUID().uuidString.prefix(8))"
        let transport = CurlTestServers.transport()
        let base = try #require(WebSocketTestServers.fault)
        let request = HTTPRequest(
            url: try #require(URL(string: base.absoluteString + "/fragmented-with-pings?id=" + id))
        )
        let socket = try await WebSocketConnector().connect(
            request,
            configuration: WebSocketConfiguration(),
            over: transport
        )
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("Hello, WebSocket"))
        await socket.close()
        let record = try await Self.closeRecord(id, transport: transport)
        #expect(record["pongs"] as? [String] == ["p1", "p2"], "\(record)")
        #expect(record["close_code"] as? Int == 1000, "\(record)")
        await transport.shutdown()
    }

    static let handshakeFaults = [
        "/bad-accept", "/missing-upgrade", "/wrong-upgrade", "/missing-connection", "/unoffered-subprotocol",
        "/unoffered-extension", "/deflate/window-out-of-range", "/deflate/unknown-parameter",
        "/deflate/duplicate-parameter", "/deflate/value-on-flag", "/deflate/twice",
    ]

    @Test(.enabled(if: hasServer, "COURIER_WS_FAULT_URL not set"), arguments: handshakeFaults)
    func handshakeFaultFailsWithoutAFrame(path: String) async throws {
        let (_, error, record) = try await Self.run(path)
        guard case .invalidHandshakeResponse(_, let response) = error else {
            Issue.record("\(path): not invalidHandshakeResponse: \(String(describing: error))")
            return
        }
        #expect(response.status.code == 101)
        #expect(record["close_received"] as? Bool == false, "\(path): \(record)")
        #expect((record["frames"] as? [Any])?.isEmpty == true, "\(path): \(record)")
    }

    @Test(.enabled(if: hasServer, "COURIER_WS_FAULT_URL not set"))
    func unrequestedClientWindowIsAFaultOnlyWithoutTheOffer() async throws {
        var configuration = WebSocketConfiguration()
        var offer = WebSocketDeflateOffer()
        offer.offersClientMaxWindowBits = false
        configuration.perMessageDeflate = offer
        let (_, error, _) = try await Self.run("/deflate/unrequested-client-window", configuration: configuration)
        guard case .invalidHandshakeResponse(.extensions, _) = error else {
            Issue.record("not an extensions failure: \(String(describing: error))")
            return
        }
    }
}
