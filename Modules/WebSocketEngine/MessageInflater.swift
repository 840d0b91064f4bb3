internal import CourierContentDecoding
internal import CourierWebSocket

/// The receiving side of permessage-deflate (RFC 7692 §7.2.2): `CourierContentDecoding`'s raw
/// deflate decoder, whose window persists across messages (context takeover) until the assembler
/// resets it (`server_no_context_takeover`).
///
/// Used by the connection's reader task only.
final class MessageInflater: WebSocketInflating {
    private let decoder: ContentDecoder

    /// Starts a raw-deflate decoder.
    /// - Throws: `WebSocketError.protocolViolation` with 1011 when zlib cannot start.
    init() throws(WebSocketError) {
        do {
            decoder = try ContentDecoder(codings: [.rawDeflate])
        } catch {
            throw .protocolViolation(.internalError, reason: "the inflater could not start: \(error)")
        }
    }

    func feed(_ compressed: [UInt8]) {
        decoder.feed(compressed)
    }

    func read(maximumCount: Int) throws -> [UInt8] {
        guard let piece = try decoder.read(maximumCount: maximumCount) else { return [] }
        return Array(piece)
    }

    func resetContext() throws {
        try decoder.reset()
    }
}
