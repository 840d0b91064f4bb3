internal import CCourierZlib

/// gzip, zlib and bare deflate through zlib's `inflate`.
final class ZlibStage: DecodingStage {
    enum Format {
        /// RFC 1952; members may follow one another (RFC 1952 §2.2).
        case gzip
        /// RFC 1950, or a bare RFC 1951 stream when the first two bytes are no zlib header.
        case zlibOrRaw
        /// RFC 1951 only.
        case raw
    }

    private let format: Format
    private let coding: ContentCoding
    /// zlib keeps a pointer back to the stream in its state and checks it: the stream must not move.
    private let stream: UnsafeMutablePointer<z_stream>
    private var initialized = false
    private(set) var isAtEnd = false

    init(format: Format, coding: ContentCoding) throws(ContentDecodingError) {
        self.format = format
        self.coding = coding
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        switch format {
        case .gzip: try start(windowBits: 15 + 16)
        case .raw: try start(windowBits: -15)
        case .zlibOrRaw: break  // decided by the first two bytes
        }
    }

    deinit {
        if initialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    private func start(windowBits: Int32) throws(ContentDecodingError) {
        let status = courier_inflate_init2(stream, windowBits)
        guard status == Z_OK else { throw failure(status, "inflateInit2") }
        initialized = true
    }

    func reset() throws(ContentDecodingError) {
        isAtEnd = false
        guard initialized else { return }
        if format == .zlibOrRaw {
            inflateEnd(stream)
            stream.pointee = z_stream()
            initialized = false
            return
        }
        let status = inflateReset(stream)
        guard status == Z_OK else { throw failure(status, "inflateReset") }
    }

    func decode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int) {
        if !initialized {
            // RFC 1950 §2.2: CM is 8 and the 16-bit header is a multiple of 31. A bare deflate
            // stream can only look like one by chance in its first block type bits, which is why
            // browsers and curl guess this way too.
            guard input.count >= 2 else { return (0, 0) }
            let isZlib = input[0] & 0x0F == 8 && (UInt16(input[0]) << 8 | UInt16(input[1])) % 31 == 0
            try start(windowBits: isZlib ? 15 : -15)
        }
        if isAtEnd {
            guard !input.isEmpty else { return (0, 0) }
            // Another gzip member may follow (RFC 1952 §2.2); anything else is trailing data.
            guard format == .gzip else { throw trailing(input.count) }
            if input.count < 2 {
                guard input[0] == 0x1F else { throw trailing(input.count) }
                return (0, 0)
            }
            guard input[0] == 0x1F && input[1] == 0x8B else { throw trailing(input.count) }
            try reset()
        }
        guard !output.isEmpty else { return (0, 0) }
        let base = input.baseAddress.map { UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self)) }
        stream.pointee.next_in = base
        stream.pointee.avail_in = UInt32(clamping: input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(clamping: output.count)
        let status = inflate(stream, Z_SYNC_FLUSH)
        let consumed = min(input.count, Int(UInt32(clamping: input.count))) - Int(stream.pointee.avail_in)
        let produced = Int(UInt32(clamping: output.count)) - Int(stream.pointee.avail_out)
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        switch status {
        case Z_OK, Z_BUF_ERROR:  // Z_BUF_ERROR: no progress possible until more input comes
            return (consumed, produced)
        case Z_STREAM_END:
            isAtEnd = true
            return (consumed, produced)
        case Z_NEED_DICT:
            throw ContentDecodingError(
                code: .corruptData,
                coding: coding,
                detail: "the stream needs a preset dictionary"
            )
        case Z_DATA_ERROR:
            throw ContentDecodingError(code: .corruptData, coding: coding, detail: message ?? "invalid data")
        default:
            throw failure(status, "inflate")
        }
    }

    private var message: String? {
        stream.pointee.msg.map { String(cString: $0) }
    }

    private func trailing(_ count: Int) -> ContentDecodingError {
        ContentDecodingError(
            code: .trailingData,
            coding: coding,
            detail: "\(count == 1 ? "a byte follows" : "bytes follow") the end of the compressed stream"
        )
    }

    private func failure(_ status: Int32, _ operation: String) -> ContentDecodingError {
        ContentDecodingError(
            code: status == Z_MEM_ERROR ? .libraryFailure : .corruptData,
            coding: coding,
            detail: "\(operation) failed with zlib status \(status)\(message.map { ": \($0)" } ?? "")"
        )
    }
}
