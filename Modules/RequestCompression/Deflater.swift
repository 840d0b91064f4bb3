internal import CCourierZlib

/// One zlib compression stream (RFC 1950 zlib format for HTTP's `deflate`, RFC 1952 for `gzip`).
///
/// A class because `z_stream` holds pointers into itself once initialised and must not move; it is
/// confined to the body reader that owns it, so it is not `Sendable`.
final class Deflater {
    enum Format {
        case zlib
        case gzip

        /// zlib's window-bits argument: 15 (32 KiB window) for the zlib wrapper, +16 for gzip's.
        var windowBits: Int32 {
            switch self {
            case .zlib: 15
            case .gzip: 15 + 16
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        let operation: String
        var description: String { "zlib \(operation) failed with code \(code)" }
    }

    private var stream = z_stream()

    init(format: Format, level: Int32) throws(Failure) {
        let status = courier_deflate_init2(&stream, level, format.windowBits)
        guard status == Z_OK else { throw Failure(code: status, operation: "deflateInit2") }
    }

    deinit { deflateEnd(&stream) }

    /// Starts a new compressed stream (for a replayed body).
    func reset() throws(Failure) {
        let status = deflateReset(&stream)
        guard status == Z_OK else { throw Failure(code: status, operation: "deflateReset") }
    }

    /// Compresses `input` into `output`, returning how many input bytes were taken and output bytes
    /// written; with `finish`, returns `done` once the stream's end was written.
    func deflate(
        input: UnsafeRawBufferPointer,
        output: UnsafeMutableRawBufferPointer,
        finish: Bool
    ) throws(Failure) -> (consumed: Int, produced: Int, done: Bool) {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(output.count)
        let status = CCourierZlib.deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
        // Z_BUF_ERROR only means no progress was possible with these buffers: not a failure.
        guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
            throw Failure(code: status, operation: "deflate")
        }
        let consumed = input.count - Int(stream.avail_in)
        let produced = output.count - Int(stream.avail_out)
        stream.next_in = nil
        stream.next_out = nil
        return (consumed, produced, status == Z_STREAM_END)
    }
}
