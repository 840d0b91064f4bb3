import CourierWebSocket
import FoundationEssentials

/// What a WebSocket server sends: bytes fed to the frame parser in chunks whose sizes, and whether
/// permessage-deflate is agreed, come from the first byte; every frame goes through the message
/// assembler (compressed ones through a copying inflater), with limits small enough that a hostile
/// length cannot make the fuzzer allocate much. Each frame must also survive the encoder: written,
/// then read back with the mask taken off, it must be the same frame.
enum WebSocketFrameInputs {
    static func run(_ data: Data) {
        guard let first = data.first else { return }
        let compression = first & 0x80 != 0
        let chunk = Int(first & 0x3F) + 1
        var parser = WebSocketFrameParser(maximumFrameSize: 4_096, allowsCompression: compression)
        var assembler = WebSocketMessageAssembler(
            maximumMessageSize: 8_192,
            deflate: compression ? WebSocketDeflateParameters(serverNoContextTakeover: first & 0x40 != 0) : nil
        )
        let inflater = CopyingInflater()
        var rest = data.dropFirst()
        while !rest.isEmpty {
            parser.append(rest.prefix(chunk))
            rest = rest.dropFirst(chunk)
            do {
                while let frame = try parser.nextFrame() {
                    checkRoundTrip(frame, allowsCompression: compression)
                    _ = try assembler.receive(frame, inflater: inflater)
                }
            } catch {
                _ = error.closeCode
                return
            }
        }
    }

    /// The encoder's output, unmasked as a server would send it, parses back to the same frame.
    static func checkRoundTrip(_ frame: WebSocketFrame, allowsCompression: Bool) {
        var bytes = WebSocketFrameEncoder.encode(frame, maskingKey: 0)
        let header = bytes[1] & 0x7F == 127 ? 10 : bytes[1] & 0x7F == 126 ? 4 : 2
        bytes[1] &= 0x7F
        bytes.removeSubrange(header..<(header + 4))
        var parser = WebSocketFrameParser(maximumFrameSize: 4_096, allowsCompression: allowsCompression)
        parser.append(bytes)
        guard (try? parser.nextFrame()) == frame, parser.bufferedByteCount == 0 else {
            fatalError("WebSocket frame round trip: \(frame) was written as \(bytes)")
        }
    }
}

/// An inflater that returns what it was fed, less the message tail the assembler appends, in the
/// slices it is asked for: enough to drive the assembler's compressed path without zlib.
final class CopyingInflater: WebSocketInflating {
    private var pending: [UInt8] = []

    func feed(_ compressed: [UInt8]) {
        if compressed != [0x00, 0x00, 0xFF, 0xFF] { pending += compressed }
    }

    func read(maximumCount: Int) throws -> [UInt8] {
        let slice = Array(pending.prefix(maximumCount))
        pending.removeFirst(slice.count)
        return slice
    }

    func resetContext() throws { pending = [] }
}
