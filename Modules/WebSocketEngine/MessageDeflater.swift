internal import CCourierZlib
internal import CourierWebSocket

/// Compresses outgoing messages for permessage-deflate (RFC 7692 §7.2.1): raw deflate, each message
/// ended with a sync flush whose trailing `00 00 FF FF` is dropped, the window kept from message to
/// message unless `client_no_context_takeover` was agreed.
///
/// zlib cannot write a window of 8 bits for raw deflate (it turns 8 into 9), so an agreed
/// `client_max_window_bits=8` compresses with 9 bits: RFC 7692 §7.1.2.2 lets a client use a
/// smaller window than agreed, never a larger one, and 9 is larger, so such a server must accept
/// it; servers that agree to 8 (zlib-based ones) inflate with zlib, which treats 8 as 9 as well.
///
/// - Important: Holds a z_stream, which is not thread-safe: the connection uses it from one sender
///   at a time, under its send gate; that is why it is `@unchecked Sendable`.
final class MessageDeflater: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>
    private let resetsContext: Bool
    private var output: [UInt8] = []

    /// Starts a compressor for the agreed parameters.
    /// - Parameter parameters: What the handshake agreed.
    /// - Throws: `WebSocketError.protocolViolation` with 1011 when zlib cannot start.
    init(parameters: WebSocketDeflateParameters) throws(WebSocketError) {
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        resetsContext = parameters.clientNoContextTakeover
        let bits = Int32(min(max(parameters.clientMaxWindowBits, 9), 15))
        let status = courier_deflate_init2(stream, Z_DEFAULT_COMPRESSION, -bits)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .protocolViolation(.internalError, reason: "zlib's deflateInit2 failed (\(status))")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The compressed payload of one message, without the sync flush's `00 00 FF FF` tail.
    /// - Throws: `WebSocketError.protocolViolation` with 1011 when zlib fails.
    func compress(_ payload: [UInt8]) throws(WebSocketError) -> [UInt8] {
        output.removeAll(keepingCapacity: true)
        // deflateBound covers a whole stream; the flush adds a few bytes on top.
        let bound = Int(deflateBound(stream, UInt(payload.count))) + 16
        var produced = 0
        var status: Int32 = Z_OK
        var input = payload
        input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.pointee.next_in = inputBuffer.baseAddress
            stream.pointee.avail_in = UInt32(inputBuffer.count)
            repeat {
                if output.count - produced < 64 { output.append(contentsOf: repeatElement(0, count: max(bound, 4096))) }
                output.withUnsafeMutableBufferPointer { outputBuffer in
                    stream.pointee.next_out = outputBuffer.baseAddress.map { $0 + produced }
                    stream.pointee.avail_out = UInt32(outputBuffer.count - produced)
                    status = deflate(stream, Z_SYNC_FLUSH)
                    produced = outputBuffer.count - Int(stream.pointee.avail_out)
                }
                // Z_BUF_ERROR only says no progress was possible: the flush is complete.
            } while status == Z_OK && stream.pointee.avail_out == 0
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        guard status == Z_OK || status == Z_BUF_ERROR else {
            throw .protocolViolation(.internalError, reason: "zlib's deflate failed (\(status))")
        }
        output.removeSubrange(produced...)
        if output.count >= 4, output.suffix(4).elementsEqual([0x00, 0x00, 0xFF, 0xFF]) {
            output.removeLast(4)
        }
        if resetsContext {
            let reset = deflateReset(stream)
            guard reset == Z_OK else {
                throw .protocolViolation(.internalError, reason: "zlib's deflateReset failed (\(reset))")
            }
        }
        return output
    }
}
