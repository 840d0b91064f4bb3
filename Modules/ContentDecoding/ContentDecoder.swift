public import FoundationEssentials

/// A streaming decoder for one body's content codings, with output in bounded pieces.
///
/// Feed it compressed bytes as they arrive and pull decoded bytes with ``read(maximumCount:)``, at
/// most `maximumCount` at a time. What is not pulled yet stays compressed: the decoder keeps the
/// input it has not consumed and its codings' working state (a window, a frame buffer), and
/// nothing more, so a consumer that falls behind simply stops pulling. That is what lets a caller
/// honour backpressure on a decompression bomb: 16 KiB of a 1000:1 stream never turns into
/// 16 MiB in one call.
///
/// Stacked codings (`Content-Encoding: gzip, br`) are undone in reverse order (RFC 9110 §8.4),
/// each stage pulling at most ``intermediateChunkSize`` from the one beneath.
///
/// ```swift
/// let decoder = try ContentDecoder(contentEncoding: "gzip")
/// decoder.feed(compressedChunk)
/// while let piece = try decoder.read(maximumCount: 64 << 10) {
///     consume(piece)
/// }
/// decoder.finish()  // the body ended
/// while let piece = try decoder.read(maximumCount: 64 << 10) { consume(piece) }  // throws if truncated
/// ```
///
/// Raw deflate with a persistent context is WebSocket permessage-deflate's receiving side
/// (RFC 7692 §7.2.2): make the decoder with `[.rawDeflate]`, feed each message's payload followed by
/// `00 00 FF FF`, and read until `nil`; the window carries over to the next message (context
/// takeover), or ``reset()`` drops it (`server_no_context_takeover`). Such a stream never ends, so
/// such a decoder is never finished.
///
/// - Important: Not thread-safe: one decoder serves one body on one thread at a time.
public final class ContentDecoder {
    /// The codings, in the order they were applied to the body.
    public let codings: [ContentCoding]
    /// Stages in decoding order: the first reads the fed bytes, the last produces the output.
    private let stages: [any DecodingStage]
    /// Each stage's unconsumed input: `inputs[0]` holds the fed bytes, `inputs[i]` stage `i - 1`'s output.
    private var inputs: [ByteQueue]
    private var inputEnded = false
    /// Where ``read(maximumCount:)`` decodes into: kept, so that a read that yields nothing (every
    /// chunk ends with one) allocates nothing.
    private var scratch: [UInt8] = []

    /// The most bytes a stage pulls from the stage beneath in one go: the bound on what stacked
    /// codings hold between them.
    public static let intermediateChunkSize = 64 << 10

    /// Makes a decoder for `codings`, listed in the order they were applied (as in the header).
    ///
    /// ```swift
    /// let decoder = try ContentDecoder(codings: [.rawDeflate])  // WebSocket permessage-deflate
    /// ```
    ///
    /// - Parameter codings: The codings; empty for a decoder that passes bytes through unchanged.
    /// - Throws: ``ContentDecodingError`` when a library cannot start a decoder, or for more than
    ///   ``ContentCoding/maximumStackDepth`` codings.
    public init(codings: [ContentCoding]) throws(ContentDecodingError) {
        guard codings.count <= ContentCoding.maximumStackDepth else {
            throw ContentDecodingError(
                code: .tooManyCodings,
                coding: nil,
                detail: "\(codings.count) stacked content codings (at most \(ContentCoding.maximumStackDepth))"
            )
        }
        self.codings = codings
        var stages: [any DecodingStage] = []
        for coding in codings.reversed() {
            stages.append(try Self.makeStage(coding))
        }
        self.stages = stages
        inputs = Array(repeating: ByteQueue(), count: max(1, stages.count))
    }

    /// Makes a decoder for a `Content-Encoding` field's value.
    ///
    /// ```swift
    /// let decoder = try ContentDecoder(contentEncoding: response.headers["Content-Encoding"] ?? "")
    /// ```
    ///
    /// - Parameter contentEncoding: The field's value; `identity` elements are skipped.
    /// - Throws: ``ContentDecodingError`` for a coding this module does not know (see
    ///   ``ContentCoding/codings(contentEncoding:)``).
    public convenience init(contentEncoding: String) throws(ContentDecodingError) {
        try self.init(codings: ContentCoding.codings(contentEncoding: contentEncoding))
    }

    private static func makeStage(_ coding: ContentCoding) throws(ContentDecodingError) -> any DecodingStage {
        switch coding {
        case .gzip: try ZlibStage(format: .gzip, coding: coding)
        case .deflate: try ZlibStage(format: .zlibOrRaw, coding: coding)
        case .rawDeflate: try ZlibStage(format: .raw, coding: coding)
        case .brotli: try BrotliStage()
        case .zstd: try ZstdStage()
        }
    }

    /// Compressed bytes fed and not consumed yet by the first stage. A caller that pauses its
    /// source while this is non-zero holds at most one chunk of compressed input here.
    public var bufferedInputCount: Int { inputs[0].count }

    /// Whether every coding's stream is complete and all of its output was read.
    public var isComplete: Bool {
        stages.allSatisfy(\.isAtEnd) && inputs.allSatisfy(\.isEmpty)
    }

    /// Adds compressed bytes; nothing is decoded until ``read(maximumCount:)``.
    ///
    /// ```swift
    /// chunk.withUnsafeBytes { decoder.feed($0) }
    /// ```
    ///
    /// - Parameter bytes: The next bytes of the body as received (copied).
    public func feed(_ bytes: UnsafeRawBufferPointer) {
        inputs[0].append(bytes)
    }

    /// Adds compressed bytes; nothing is decoded until ``read(maximumCount:)``.
    ///
    /// ```swift
    /// decoder.feed(Data([0x1F, 0x8B]))
    /// ```
    ///
    /// - Parameter bytes: The next bytes of the body as received (copied).
    public func feed(_ bytes: some Sequence<UInt8>) {
        inputs[0].append(contentsOf: bytes)
    }

    /// Declares the input complete: from now on ``read(maximumCount:)`` returns `nil` only at the
    /// end of every stream, and throws when the input ended inside one.
    ///
    /// ```swift
    /// decoder.finish()
    /// while let piece = try decoder.read(maximumCount: 16 << 10) { consume(piece) }
    /// ```
    public func finish() {
        inputEnded = true
    }

    /// Decodes up to `maximumCount` bytes.
    ///
    /// ```swift
    /// while let piece = try decoder.read(maximumCount: 16 << 10) { consume(piece) }
    /// ```
    ///
    /// - Parameter maximumCount: The most bytes to return (at least 1 is used).
    /// - Returns: Between 1 and `maximumCount` decoded bytes, or `nil` when the decoder needs more
    ///   input (or, after ``finish()``, when every stream is complete).
    /// - Throws: ``ContentDecodingError``: corrupt data or bytes after a stream's end at any time;
    ///   after ``finish()``, ``ContentDecodingError/Code/truncatedStream`` when the input ended
    ///   before a stream did.
    public func read(maximumCount: Int) throws(ContentDecodingError) -> Data? {
        let count = max(1, maximumCount)
        if scratch.count < count { scratch = [UInt8](repeating: 0, count: count) }
        // The buffer's closure rethrows untyped; the Result carries the typed error across it.
        let produced = try scratch.withUnsafeMutableBytes { output in
            Result { () throws(ContentDecodingError) in
                try produce(into: UnsafeMutableRawBufferPointer(rebasing: output[..<count]))
            }
        }.get()
        if produced > 0 { return Data(scratch[..<produced]) }
        if inputEnded { try checkComplete() }
        return nil
    }

    /// Starts over: drops buffered input and every coding's state (a new body, or a WebSocket
    /// message under `no_context_takeover`).
    ///
    /// ```swift
    /// try decoder.reset()
    /// ```
    ///
    /// - Throws: ``ContentDecodingError/Code/libraryFailure`` when a library cannot restart.
    public func reset() throws(ContentDecodingError) {
        for stage in stages { try stage.reset() }
        for index in inputs.indices { inputs[index].removeAll() }
        inputEnded = false
    }

    private func produce(into output: UnsafeMutableRawBufferPointer) throws(ContentDecodingError) -> Int {
        guard let last = stages.indices.last else {
            // No coding: hand the fed bytes out as they are.
            let count = min(output.count, inputs[0].count)
            try inputs[0].withUnsafeBytes { input in
                output.copyMemory(from: UnsafeRawBufferPointer(rebasing: input[..<count]))
            }
            inputs[0].consume(count)
            return count
        }
        return try produce(stage: last, into: output)
    }

    /// Runs stage `index` until it produces something into `output` or can go no further, pulling
    /// bounded pieces from the stage beneath as it runs dry.
    private func produce(stage index: Int, into output: UnsafeMutableRawBufferPointer) throws(ContentDecodingError)
        -> Int
    {
        let stage = stages[index]
        while true {
            let (consumed, produced) = try inputs[index].withUnsafeBytes { input throws(ContentDecodingError) in
                try stage.decode(input, into: output)
            }
            inputs[index].consume(consumed)
            if produced > 0 { return produced }
            if consumed > 0 { continue }
            // No progress: the stage needs input (or is at its end and has none).
            guard index > 0 else { return 0 }
            let refilled = try refill(stage: index)
            if refilled == 0 { return 0 }
        }
    }

    private func refill(stage index: Int) throws(ContentDecodingError) -> Int {
        var piece = [UInt8](repeating: 0, count: Self.intermediateChunkSize)
        let count = try piece.withUnsafeMutableBytes { buffer in
            Result { () throws(ContentDecodingError) in try produce(stage: index - 1, into: buffer) }
        }.get()
        if count > 0 { inputs[index].append(contentsOf: piece[..<count]) }
        return count
    }

    private func checkComplete() throws(ContentDecodingError) {
        for (index, stage) in stages.enumerated() {
            let coding = codings[codings.count - 1 - index]
            guard stage.isAtEnd else {
                throw ContentDecodingError(
                    code: .truncatedStream,
                    coding: coding,
                    detail: "the input ended inside the compressed stream"
                )
            }
            guard inputs[index].isEmpty else {
                // Only a partial gzip member header can be left over (the stage waits for its
                // second byte); anything else fails while decoding.
                throw ContentDecodingError(
                    code: .truncatedStream,
                    coding: coding,
                    detail: "the input ended inside a gzip member header"
                )
            }
        }
    }
}

@available(*, unavailable, message: "a decoder serves one body on one thread")
extension ContentDecoder: Sendable {}
