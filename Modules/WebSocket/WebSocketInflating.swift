/// The decompressor the message assembler inflates permessage-deflate messages with (RFC 7692 §7.2.2).
///
/// The engine implements it over a raw-deflate (no zlib header) decoder whose LZ77 window persists
/// from message to message, since the server may refer back into earlier messages unless it agreed
/// to `server_no_context_takeover`. The assembler feeds it each frame's payload, then the four
/// bytes `00 00 ff ff` that the server removed from the end of the message, and reads the output
/// in bounded slices, so that a small message that inflates without end (a "bomb") stops at the
/// message size limit instead of filling memory.
///
/// ```swift
/// final class ZlibInflater: WebSocketInflating {
///     private let decoder = try ContentDecoder(codings: [.rawDeflate])
///     func feed(_ compressed: [UInt8]) { decoder.feed(compressed) }
///     func read(maximumCount: Int) throws -> [UInt8] {
///         try decoder.read(maximumCount: maximumCount).map(Array.init) ?? []
///     }
///     func resetContext() throws { try decoder.reset() }
/// }
/// ```
public protocol WebSocketInflating: AnyObject {
    /// Hands compressed bytes to the inflater, continuing the stream where the last call stopped.
    ///
    /// - Parameter compressed: The next compressed bytes.
    func feed(_ compressed: [UInt8])

    /// Decompressed bytes, at most `maximumCount`; empty when everything fed so far has been
    /// returned. Called again until it returns an empty array.
    ///
    /// - Parameter maximumCount: The most bytes to return (at least 1).
    /// - Throws: When the compressed data is invalid; the assembler fails the connection with 1007.
    func read(maximumCount: Int) throws -> [UInt8]

    /// Forgets the LZ77 window, for a server that agreed to `server_no_context_takeover`; the
    /// assembler calls it after each compressed message in that case.
    ///
    /// - Throws: When the inflater cannot be reset; the assembler fails the connection with 1011.
    func resetContext() throws
}
