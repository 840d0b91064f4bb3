import CCourierBrotliEncoder
import CCourierZlib
import CCourierZstd
import CourierContentDecoding
import Foundation

/// The reference encoders the vectors are made with: zlib, libbrotlienc and libzstd themselves.
enum Encoders {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// zlib's window bits for each wrapper: 15 + 16 is gzip, 15 zlib, -15 a bare deflate stream.
    static func windowBits(_ coding: ContentCoding) -> Int32 {
        switch coding {
        case .gzip: 31
        case .rawDeflate: -15
        default: 15
        }
    }

    static func encode(_ data: Data, as coding: ContentCoding) throws -> Data {
        switch coding {
        case .gzip, .deflate, .rawDeflate: try deflate(data, windowBits: windowBits(coding))
        case .brotli: try brotli(data)
        case .zstd: try zstd(data)
        }
    }

    /// Applies `codings` in order, as a server would for `Content-Encoding: <codings>`.
    static func encode(_ data: Data, as codings: [ContentCoding]) throws -> Data {
        try codings.reduce(data) { try encode($0, as: $1) }
    }

    static func deflate(_ data: Data, windowBits: Int32, level: Int32 = 6) throws -> Data {
        var deflater = try Deflater(windowBits: windowBits, level: level)
        var output = try deflater.deflate(data, flush: Z_NO_FLUSH)
        output += try deflater.deflate(Data(), flush: Z_FINISH)
        return output
    }

    static func brotli(_ data: Data) throws -> Data {
        var size = BrotliEncoderMaxCompressedSize(data.count)
        var output = Data(count: size)
        let ok = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                BrotliEncoderCompress(
                    5,
                    BROTLI_DEFAULT_WINDOW,
                    BROTLI_MODE_GENERIC,
                    input.count,
                    input.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    &size,
                    out.baseAddress?.assumingMemoryBound(to: UInt8.self)
                )
            }
        }
        guard ok == BROTLI_TRUE else { throw Failure(description: "BrotliEncoderCompress failed") }
        output.count = size
        return output
    }

    static func zstd(_ data: Data, level: Int32 = 3) throws -> Data {
        var output = Data(count: ZSTD_compressBound(data.count))
        let size = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                ZSTD_compress(out.baseAddress, out.count, input.baseAddress, input.count, level)
            }
        }
        guard ZSTD_isError(size) == 0 else { throw Failure(description: "ZSTD_compress failed") }
        output.count = size
        return output
    }

    /// One zlib deflate stream, fed piece by piece.
    struct Deflater: ~Copyable {
        private let stream: UnsafeMutablePointer<z_stream>

        init(windowBits: Int32, level: Int32 = 6) throws {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            guard courier_deflate_init2(stream, level, windowBits) == Z_OK else {
                stream.deallocate()
                throw Failure(description: "deflateInit2 failed")
            }
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
        }

        mutating func deflate(_ data: Data, flush: Int32) throws -> Data {
            var output = Data()
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            try data.withUnsafeBytes { input in
                stream.pointee.next_in = UnsafeMutablePointer(
                    mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                )
                stream.pointee.avail_in = UInt32(input.count)
                repeat {
                    let status = chunk.withUnsafeMutableBytes { out in
                        stream.pointee.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
                        stream.pointee.avail_out = UInt32(out.count)
                        return CCourierZlib.deflate(stream, flush)
                    }
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                        throw Failure(description: "deflate failed with \(status)")
                    }
                    output.append(contentsOf: chunk[..<(chunk.count - Int(stream.pointee.avail_out))])
                } while stream.pointee.avail_out == 0
            }
            stream.pointee.next_in = nil
            return output
        }
    }
}

/// Decodes `input` fed in pieces of `feedSize`, pulling at most `readSize` at a time, and checks
/// that no read returns more than asked for.
func decodeAll(
    _ decoder: ContentDecoder,
    _ input: Data,
    feedSize: Int = 4096,
    readSize: Int = 16 << 10
) throws -> Data {
    var output = Data()
    var offset = input.startIndex
    func drain() throws {
        while let piece = try decoder.read(maximumCount: readSize) {
            guard piece.count <= readSize else {
                throw Encoders.Failure(description: "read \(piece.count) > \(readSize)")
            }
            output += piece
        }
    }
    while offset < input.endIndex {
        let end = min(offset + feedSize, input.endIndex)
        decoder.feed(input[offset..<end])
        offset = end
        try drain()
    }
    decoder.finish()
    try drain()
    return output
}
