internal import CCourierBrotli

/// Brotli (RFC 7932) through libbrotlidec's streaming decoder.
final class BrotliStage: DecodingStage {
    /// Opaque decoder state; recreated by `reset`.
    private var state: OpaquePointer
    private(set) var isAtEnd = false

    init() throws(ContentDecodingError) {
        state = try Self.makeState()
    }

    deinit { BrotliDecoderDestroyInstance(state) }

    private static func makeState() throws(ContentDecodingError) -> OpaquePointer {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else {
            throw ContentDecodingError(
                code: .libraryFailure,
                coding: .brotli,
                detail: "BrotliDecoderCreateInstance failed"
            )
        }
        return state
    }

    func reset() throws(ContentDecodingError) {
        let fresh = try Self.makeState()
        BrotliDecoderDestroyInstance(state)
        state = fresh
        isAtEnd = false
    }

    func decode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
        if isAtEnd {
            guard input.isEmpty else {
                throw ContentDecodingError(
                    code: .trailingData,
                    coding: .brotli,
                    detail: "bytes follow the end of the compressed stream"
                )
            }
            return (0, 0)
        }
        guard !output.isEmpty else { return (0, 0) }
        var availableIn = input.count
        var nextIn = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        var availableOut = output.count
        var nextOut = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
        let consumed = input.count - availableIn
        let produced = output.count - availableOut
        switch result {
        case BROTLI_DECODER_RESULT_SUCCESS:
            isAtEnd = true
            if availableIn > 0 {
                throw ContentDecodingError(
                    code: .trailingData,
                    coding: .brotli,
                    detail: "bytes follow the end of the compressed stream"
                )
            }
            return (consumed, produced)
        case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT, BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
            return (consumed, produced)
        default:
            let code = BrotliDecoderGetErrorCode(state)
            let text = BrotliDecoderErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
            // -21...-30 are allocation failures (decode.h's BROTLI_DECODER_ERROR_ALLOC_*): the
            // library's, not the data's.
            let isAllocation = (-30 ... -21).contains(code.rawValue)
            throw ContentDecodingError(
                code: isAllocation ? .libraryFailure : .corruptData,
                coding: .brotli,
                detail: text
            )
        }
    }
}
