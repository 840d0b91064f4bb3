internal import CCourierZstd

/// Zstandard (RFC 8878) through libzstd's streaming decoder; frames may follow one another.
final class ZstdStage: DecodingStage {
    /// RFC 9659 §3: an HTTP recipient may refuse windows over 8 MiB, and senders keep to that, so
    /// a frame cannot make the decoder allocate more (libzstd's own default is 128 MiB).
    static let windowLogMaximum: Int32 = 23

    private let context: OpaquePointer
    /// Whether the last frame is complete and flushed (libzstd returned 0) and nothing came after.
    private(set) var isAtEnd = false

    init() throws(ContentDecodingError) {
        guard let context = ZSTD_createDCtx() else {
            throw ContentDecodingError(code: .libraryFailure, coding: .zstd, detail: "ZSTD_createDCtx failed")
        }
        self.context = context
        try check(ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Self.windowLogMaximum))
    }

    deinit { ZSTD_freeDCtx(context) }

    func reset() throws(ContentDecodingError) {
        try check(ZSTD_DCtx_reset(context, ZSTD_reset_session_only))
        isAtEnd = false
    }

    func decode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
        guard !output.isEmpty else { return (0, 0) }
        if isAtEnd && input.isEmpty { return (0, 0) }
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var destination = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let hint = ZSTD_decompressStream(context, &destination, &source)
        try check(hint)
        if source.pos > 0 || destination.pos > 0 || hint == 0 {
            isAtEnd = hint == 0 && source.pos == source.size
        }
        return (source.pos, destination.pos)
    }

    private func check(_ result: Int) throws(ContentDecodingError) {
        guard ZSTD_isError(result) != 0 else { return }
        let code = ZSTD_getErrorCode(result)
        let text = ZSTD_getErrorName(result).map { String(cString: $0) } ?? "error \(result)"
        throw ContentDecodingError(
            code: code == ZSTD_error_memory_allocation ? .libraryFailure : .corruptData,
            coding: .zstd,
            detail: text
        )
    }
}
