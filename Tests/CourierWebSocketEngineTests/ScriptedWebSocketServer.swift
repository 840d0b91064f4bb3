import CourierHTTP
import CourierTesting
import CourierTransport
import CourierWebSocket
import Foundation
import Testing

@testable import CourierWebSocketEngine

/// The server's side of a connection over `MockRawConnection`: it reads the handshake the
/// connector wrote, answers it, and writes and reads frames.
struct ScriptedWebSocketServer {
    let transport = MockTransport()
    let connection = MockRawConnection()

    /// The key of the handshake written so far, once its head is complete.
    var writtenKey: String? {
        let head = String(decoding: connection.written, as: UTF8.self)
        guard head.contains("\r\n\r\n") else { return nil }
        for line in head.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("sec-websocket-key:") {
            return line.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// The handshake's request head, as written.
    var writtenHead: String {
        let text = String(decoding: connection.written, as: UTF8.self)
        return text.components(separatedBy: "\r\n\r\n").first.map { $0 + "\r\n\r\n" } ?? ""
    }

    /// Waits until `condition` holds. No deadline of its own: a wall-clock bound fails on a busy
    /// machine (the unit tests run in parallel), so a wait that never ends is ended by the suites'
    /// time limit, which cancels the sleep.
    static func waitUntil(_ condition: () -> Bool) async throws {
        while !condition() {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Opens `url` through the connector; answers the handshake with a valid 101 plus
    /// `extraFields`, followed by `initialFrames`.
    func open(
        _ url: String = "ws://127.0.0.1/chat",
        configuration: WebSocketConfiguration = WebSocketConfiguration(),
        extraFields: [String] = [],
        initialFrames: [UInt8] = [],
        request adjust: (inout HTTPRequest) -> Void = { _ in }
    ) async throws -> any WebSocketConnection {
        let mapped = url.replacingOccurrences(of: "ws://", with: "http://").replacingOccurrences(
            of: "wss://",
            with: "https://"
        )
        transport.stubRawConnection(url: mapped, connection)
        var request = HTTPRequest(url: try #require(URL(string: url)))
        adjust(&request)
        let opening = Task { [transport, request] in
            try await WebSocketConnector().connect(request, configuration: configuration, over: transport)
        }
        try await Self.waitUntil { writtenKey != nil }
        let key = try #require(writtenKey)
        let accept = WebSocketHandshake.acceptValue(forKey: key, sha1: SHA1Digest.digest)
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: \(accept)\r\n"
        for field in extraFields { head += field + "\r\n" }
        head += "\r\n"
        connection.deliver(Array(head.utf8) + initialFrames)
        return try await opening.value
    }

    /// A frame as a server sends it: unmasked.
    static func frame(
        _ opcode: WebSocketOpcode,
        _ payload: [UInt8],
        isFinal: Bool = true,
        isCompressed: Bool = false
    ) -> [UInt8] {
        var bytes: [UInt8] = [(isFinal ? 0x80 : 0) | (isCompressed ? 0x40 : 0) | opcode.rawValue]
        switch payload.count {
        case ..<126: bytes.append(UInt8(payload.count))
        case ...0xFFFF: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(127)
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(56 - 8 * $0)) }
        }
        return bytes + payload
    }

    static func text(_ text: String) -> [UInt8] { frame(.text, Array(text.utf8)) }

    static func close(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8))
    }

    /// A frame the client wrote, unmasked.
    struct ClientFrame: Equatable {
        var isFinal: Bool
        var isCompressed: Bool
        var opcode: UInt8
        var maskingKey: [UInt8]
        var payload: [UInt8]
    }

    /// Every frame the client wrote after its handshake head.
    var clientFrames: [ClientFrame] {
        let written = connection.written
        let headEnd = Array(writtenHead.utf8).count
        var frames: [ClientFrame] = []
        var index = headEnd
        while index + 2 <= written.count {
            let first = written[index]
            let second = written[index + 1]
            guard second & 0x80 != 0 else {
                Issue.record("an unmasked client frame")
                return frames
            }
            var length = Int(second & 0x7F)
            var offset = index + 2
            if length == 126 {
                length = Int(written[offset]) << 8 | Int(written[offset + 1])
                offset += 2
            } else if length == 127 {
                length = (0..<8).reduce(0) { $0 << 8 | Int(written[offset + $1]) }
                offset += 8
            }
            guard offset + 4 + length <= written.count else { return frames }
            let key = Array(written[offset..<(offset + 4)])
            let payload = (0..<length).map { written[offset + 4 + $0] ^ key[$0 & 3] }
            frames.append(
                ClientFrame(
                    isFinal: first & 0x80 != 0,
                    isCompressed: first & 0x40 != 0,
                    opcode: first & 0x0F,
                    maskingKey: key,
                    payload: payload
                )
            )
            index = offset + 4 + length
        }
        return frames
    }

    /// The close codes of the client's close frames.
    var sentCloseCodes: [UInt16] {
        clientFrames.filter { $0.opcode == 8 }.map {
            $0.payload.count >= 2 ? UInt16($0.payload[0]) << 8 | UInt16($0.payload[1]) : 0
        }
    }
}

/// The error `body` throws, as a `WebSocketError`.
func webSocketError(_ body: () async throws -> Void) async -> WebSocketError? {
    do {
        try await body()
        return nil
    } catch let error as WebSocketError {
        return error
    } catch {
        Issue.record("not a WebSocketError: \(error)")
        return nil
    }
}

/// Every message until the sequence ends, and how it ended.
func drain(_ messages: WebSocketMessages) async -> ([WebSocketMessage], WebSocketError?) {
    var received: [WebSocketMessage] = []
    do {
        for try await message in messages { received.append(message) }
        return (received, nil)
    } catch {
        return (received, error)
    }
}
