import FoundationEssentials

@testable import CourierWebSocket

/// The WebSocket streaming UTF-8 validator against the standard library: the input split at a
/// point the first byte chooses, and fed byte by byte, must be judged as `String(validating:)`
/// judges it whole; and where it fails, the bytes before the refused one must be a prefix the
/// standard library completes into valid text by no more than what was refused (so the failure is
/// never early).
enum WebSocketUTF8Differential {
    static func run(_ data: Data) {
        guard let first = data.first else { return }
        let bytes = [UInt8](data.dropFirst())
        let expected = String(validating: bytes, as: UTF8.self) != nil
        let split = bytes.isEmpty ? 0 : Int(first) % (bytes.count + 1)
        var chunked = UTF8StreamValidator()
        chunked.validate(bytes[..<split])
        chunked.validate(bytes[split...])
        guard chunked.isComplete == expected else {
            fatalError("UTF-8 validator split at \(split): \(bytes) judged \(chunked.isComplete), expected \(expected)")
        }
        var single = UTF8StreamValidator()
        var refused: Int?
        for (index, byte) in bytes.enumerated() where !single.validate([byte]) {
            refused = index
            break
        }
        guard (refused == nil && single.isComplete) == expected else {
            fatalError("UTF-8 validator byte by byte: \(bytes) disagrees with the standard library")
        }
        if let refused { checkRefusalIsNotEarly(bytes, refused: refused) }
    }

    /// The character the refused byte broke (or began) could not have been completed: no tail of
    /// up to three bytes makes it valid. The tails are built from the edges of the ranges RFC 3629
    /// allows after a lead byte (80, 8F, 90, 9F, A0, BF), which is all a validator can tell apart.
    static let tails: [[UInt8]] = {
        let edges: [UInt8] = [0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF]
        var tails: [[UInt8]] = [[]]
        var longest: [[UInt8]] = [[]]
        for _ in 0..<3 {
            longest = longest.flatMap { tail in edges.map { tail + [$0] } }
            tails += longest
        }
        return tails
    }()

    static func checkRefusalIsNotEarly(_ bytes: [UInt8], refused: Int) {
        let start = bytes[..<refused].lastIndex { $0 & 0xC0 != 0x80 } ?? 0
        let character = Array(bytes[start...refused])
        guard character.count <= 4 else { return }
        for tail in tails where String(validating: character + tail, as: UTF8.self) != nil {
            fatalError("UTF-8 validator refused byte \(refused) of \(bytes), which \(tail) would complete")
        }
    }
}
