internal import CourierHTTP
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// Streams a multipart body segment by segment, for one transport thread.
///
/// A read fills the caller's buffer across as many segments as fit (capped at the throttle's packet
/// size), opening a file part only when it is reached and closing it when it is done. Every length
/// the form announced is checked while reading: a file that changed size since it was appended and a
/// source that ends early or runs long make the read throw, so the body never disagrees with its
/// `Content-Length`.
final class MultipartBodyReader: HTTPBodyReader {
    private let segments: [MultipartSegment]
    private let throttle: MultipartThrottle?
    private var index = 0
    private var position: Int64 = 0
    private var descriptor: Int32 = -1
    private var sourceReader: (any HTTPBodyReader)?
    private var nextPacket: ContinuousClock.Instant?
    /// A stream source's pause that this reader passed on after handing out bytes it already had;
    /// honoured on the next read so that the source is not asked again too early.
    private var sourcePause: ContinuousClock.Instant?

    private enum Step {
        case copied(Int)
        case paused(ContinuousClock.Instant)
    }

    init(segments: [MultipartSegment], throttle: MultipartThrottle?) {
        self.segments = segments
        self.throttle = throttle
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> HTTPBodyReadResult {
        guard index < segments.count else { return .end }
        if let nextPacket, ContinuousClock.now < nextPacket { return .paused(until: nextPacket) }
        if let sourcePause {
            if ContinuousClock.now < sourcePause { return .paused(until: sourcePause) }
            self.sourcePause = nil
        }
        let limit = min(buffer.count, throttle?.packetSize ?? Int.max)
        guard limit > 0, let base = buffer.baseAddress else { return .bytes(0) }
        var filled = 0
        filling: while filled < limit, index < segments.count {
            let target = UnsafeMutableRawBufferPointer(start: base + filled, count: limit - filled)
            switch try fill(target) {
            case .copied(let count):
                filled += count
            case .paused(let instant):
                if filled == 0 { return .paused(until: instant) }
                sourcePause = instant
                break filling
            }
        }
        // Only empty segments were left: they were passed over and the body is complete.
        guard filled > 0 else { return .end }
        if let throttle { nextPacket = .now + throttle.delay }
        return .bytes(filled)
    }

    func rewind() throws {
        closeFile()
        sourceReader = nil
        sourcePause = nil
        index = 0
        position = 0
    }

    private func fill(_ target: UnsafeMutableRawBufferPointer) throws -> Step {
        switch segments[index] {
        case .bytes(let data):
            let start = data.startIndex + Int(position)
            let count = min(target.count, data.endIndex - start)
            data.copyBytes(to: target.bindMemory(to: UInt8.self), from: start..<(start + count))
            finish(count, of: Int64(data.count))
            return .copied(count)
        case .file(let path, let length):
            if descriptor < 0 { try openFile(path, expecting: length) }
            let count = try readFile(descriptor, path: path, at: position, length: length, into: target)
            if position + Int64(count) == length {
                try checkSize(of: path, expecting: length)
                closeFile()
            }
            finish(count, of: length)
            return .copied(count)
        case .spilled(let file, let offset, let length):
            let count = try readFile(
                file.descriptor,
                path: file.path,
                at: offset + position,
                length: offset + length,
                into: target
            )
            finish(count, of: length)
            return .copied(count)
        case .source(let source, let length):
            return try fill(target, from: source, length: length)
        }
    }

    /// Moves past `count` bytes of a segment of `length` bytes, to the next segment when it is done.
    private func finish(_ count: Int, of length: Int64) {
        position += Int64(count)
        if position >= length {
            index += 1
            position = 0
        }
    }

    private func fill(
        _ target: UnsafeMutableRawBufferPointer,
        from source: any HTTPBodySource,
        length: Int64
    ) throws -> Step {
        let reader: any HTTPBodyReader
        if let sourceReader {
            reader = sourceReader
        } else {
            do {
                reader = try source.makeReader()
            } catch {
                throw MultipartErrors.streamFailed("a stream part could not be opened", underlying: error)
            }
            sourceReader = reader
        }
        let remaining = length - position
        if remaining == 0 {
            // The declared length is reached: the source must be at its end too, or the body would
            // silently drop its tail.
            var scratch: UInt8 = 0
            let outcome = try withUnsafeMutableBytes(of: &scratch) { try readSource(reader, into: $0) }
            switch outcome {
            case .end:
                sourceReader = nil
                index += 1
                position = 0
                return .copied(0)
            case .bytes:
                throw MultipartErrors.streamFailed("a stream part produced more than its declared \(length) bytes")
            case .paused(let instant):
                return .paused(instant)
            }
        }
        let wanted = Int(min(Int64(target.count), remaining))
        let slice = UnsafeMutableRawBufferPointer(rebasing: target[..<wanted])
        switch try readSource(reader, into: slice) {
        case .bytes(let count):
            guard count > 0, count <= wanted else {
                throw MultipartErrors.streamFailed(
                    "a stream part's reader returned \(count) bytes for a \(wanted)-byte buffer"
                )
            }
            position += Int64(count)
            return .copied(count)
        case .end:
            throw MultipartErrors.streamFailed(
                "a stream part ended after \(position) of its declared \(length) bytes"
            )
        case .paused(let instant):
            return .paused(instant)
        }
    }

    private func readSource(
        _ reader: any HTTPBodyReader,
        into buffer: UnsafeMutableRawBufferPointer
    ) throws -> HTTPBodyReadResult {
        do {
            return try reader.read(into: buffer)
        } catch let error as SerializationError {
            throw error
        } catch {
            throw MultipartErrors.streamFailed("a stream part could not be read", underlying: error)
        }
    }

    private func openFile(_ path: String, expecting length: Int64) throws {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            throw MultipartErrors.fileNotReachable(path, underlying: MultipartFailure(Self.systemError(path)))
        }
        descriptor = opened
        try checkSize(of: path, expecting: length)
    }

    /// A file whose size differs from the one appended would make the body disagree with its length.
    private func checkSize(of path: String, expecting length: Int64) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw MultipartErrors.fileNotReachable(path, underlying: MultipartFailure(Self.systemError(path)))
        }
        guard Int64(info.st_size) == length else {
            closeFile()
            throw MultipartErrors.streamFailed(
                "the file \(path.debugDescription) had \(length) bytes when it was appended and has \(info.st_size) now"
            )
        }
    }

    /// `pread`s up to `target.count` bytes at `offset`, stopping at `end`.
    private func readFile(
        _ file: Int32,
        path: String,
        at offset: Int64,
        length end: Int64,
        into target: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        let wanted = Int(min(Int64(target.count), end - offset))
        guard wanted > 0, let base = target.baseAddress else { return 0 }
        var count: Int
        repeat {
            count = pread(file, base, wanted, off_t(offset))
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            throw MultipartErrors.fileNotReachable(path, underlying: MultipartFailure(Self.systemError(path)))
        }
        guard count > 0 else {
            throw MultipartErrors.streamFailed(
                "the file \(path.debugDescription) ended before its \(end - offset) remaining bytes; it shrank after it was appended"
            )
        }
        return count
    }

    private func closeFile() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    private static func systemError(_ path: String) -> String {
        "\(path.debugDescription): \(String(cString: strerror(errno)))"
    }
}
