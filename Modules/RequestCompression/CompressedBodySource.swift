internal import CCourierZlib
internal import CourierHTTP
internal import FoundationEssentials

/// A replayable body compressed as it is read, for bodies too large to compress up front (files,
/// streams): each reader compresses its own pass over the original, so a retry or a redirect sends
/// the same compressed bytes again. Its length is unknown, so it goes out chunked.
struct CompressedBodySource: HTTPBodySource {
    let original: HTTPBody
    let format: Deflater.Format
    let level: Int32

    var length: Int64? { nil }

    func makeReader() throws -> any HTTPBodyReader {
        guard let inner = try original.makeReader() else {
            throw RequestCompressionError.bodyNotReplayable
        }
        return try CompressingBodyReader(inner: inner, deflater: Deflater(format: format, level: level))
    }
}

/// Pulls the original body, deflates it and hands out compressed bytes; never blocks (a paused
/// original pauses this reader too).
final class CompressingBodyReader: HTTPBodyReader {
    private let inner: any HTTPBodyReader
    private let deflater: Deflater
    private var input = [UInt8](repeating: 0, count: 64 << 10)
    private var inputStart = 0
    private var inputEnd = 0
    private var originalEnded = false
    private var finished = false

    init(inner: any HTTPBodyReader, deflater: Deflater) {
        self.inner = inner
        self.deflater = deflater
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> HTTPBodyReadResult {
        while !finished {
            if inputStart == inputEnd && !originalEnded {
                switch try input.withUnsafeMutableBytes({ try inner.read(into: $0) }) {
                case .bytes(let count):
                    inputStart = 0
                    inputEnd = count
                case .end:
                    originalEnded = true
                case .paused(let until):
                    return .paused(until: until)
                }
            }
            let step = try input.withUnsafeBytes { bytes in
                try deflater.deflate(
                    input: UnsafeRawBufferPointer(rebasing: bytes[inputStart..<inputEnd]),
                    output: buffer,
                    finish: originalEnded
                )
            }
            inputStart += step.consumed
            finished = step.done
            if step.produced > 0 { return .bytes(step.produced) }
        }
        return .end
    }

    func rewind() throws {
        try inner.rewind()
        try deflater.reset()
        inputStart = 0
        inputEnd = 0
        originalEnded = false
        finished = false
    }
}

extension CompressedBodySource {
    /// Compresses a body held in memory at once, so it keeps a known length (`Content-Length`).
    static func compress(_ data: Data, format: Deflater.Format, level: Int32) throws -> Data {
        let reader = try CompressedBodySource(original: HTTPBody(data), format: format, level: level).makeReader()
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: max(1024, min(data.count / 2, 256 << 10)))
        while true {
            switch try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }) {
            case .bytes(let count): output.append(contentsOf: buffer[..<count])
            case .end: return output
            case .paused: continue  // an in-memory reader never pauses
            }
        }
    }
}
