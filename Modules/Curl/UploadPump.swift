internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// A transfer's request body as libcurl's read callback pulls it, and its upload progress.
///
/// Loop thread only, like the ``CurlTransferState`` that holds it. The body comes from a replayable
/// reader, or from an async producer's ``RequestBodyPipe``; a chunk from the pipe that does not fit
/// libcurl's buffer is kept here and copied on the next call, so that the pipe's channel counts
/// whole chunks.
struct UploadPump {
    /// Where the bytes come from.
    enum Source {
        case none
        case reader(any HTTPBodyReader)
        case pipe(RequestBodyPipe)
    }

    /// What one read callback does.
    enum Step {
        /// `count` bytes were copied.
        case bytes(Int)
        /// The body ended.
        case end
        /// Nothing now: pause sending until `instant`, or (`nil`) until the pipe's wake-up.
        case pause(until: ContinuousClock.Instant?)
        /// The body cannot be read; the transfer stops.
        case failed(TransportError)
    }

    let source: Source
    let url: URL
    /// The request's declared body length, the total of upload progress.
    let declaredLength: Int64?
    /// Request body bytes handed to libcurl (reset when libcurl rewinds the body).
    private(set) var sentBytes: Int64 = 0
    /// Whether libcurl is paused for want of body bytes.
    var isPaused = false
    private var carried = Data()
    private var carriedOffset = 0
    private var lastProgress: ContinuousClock.Instant?
    private var lastProgressBytes: Int64 = -1

    /// How often upload progress is reported (``ProgressClock/intervalMilliseconds``).
    static let progressInterval: Duration = .milliseconds(ProgressClock.intervalMilliseconds)

    init(source: Source, url: URL, declaredLength: Int64?) {
        self.source = source
        self.url = url
        self.declaredLength = declaredLength
    }

    /// Whether the body is an async producer's, which cannot be sent twice.
    var isOneShot: Bool {
        if case .pipe = source { return true }
        return false
    }

    /// Whether there is a body at all.
    var hasBody: Bool {
        if case .none = source { return false }
        return true
    }

    /// Fills `buffer` (libcurl's read callback).
    mutating func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Step {
        switch source {
        case .none:
            return .end
        case .reader(let reader):
            do {
                switch try reader.read(into: buffer) {
                case .bytes(let count) where count > 0:
                    sentBytes += Int64(count)
                    return .bytes(count)
                case .bytes:
                    // A reader with nothing now but not finished: ask again very soon.
                    return .pause(until: .now + .milliseconds(1))
                case .end:
                    return .end
                case .paused(let instant):
                    return .pause(until: instant)
                }
            } catch {
                return .failed(
                    TransportError(
                        category: .requestBodyFailed,
                        message: "reading the request body failed: \(error)",
                        url: url,
                        underlying: error
                    )
                )
            }
        case .pipe(let pipe):
            return fill(buffer, from: pipe)
        }
    }

    private mutating func fill(_ buffer: UnsafeMutableRawBufferPointer, from pipe: RequestBodyPipe) -> Step {
        var copied = 0
        while copied < buffer.count {
            if carriedOffset == carried.count {
                // Only an empty buffer arms the pipe's wake-up: a partly filled one is sent as it is.
                switch pipe.poll(armingWake: copied == 0) {
                case .element(let chunk):
                    carried = chunk
                    carriedOffset = 0
                    continue
                case nil:
                    if copied == 0 { return .pause(until: nil) }
                case .end:
                    if copied == 0 { return .end }
                case .failure(let error):
                    if copied == 0 {
                        return .failed(
                            TransportError(
                                category: .requestBodyFailed,
                                message: "the request body producer failed: \(error)",
                                url: url,
                                underlying: error
                            )
                        )
                    }
                case .abandoned:
                    if copied == 0 {
                        return .failed(
                            TransportError(
                                category: .requestBodyFailed,
                                message: "the request body producer was closed",
                                url: url
                            )
                        )
                    }
                }
                break
            }
            let count = min(carried.count - carriedOffset, buffer.count - copied)
            let start = carried.startIndex + carriedOffset
            carried.copyBytes(
                to: UnsafeMutableRawBufferPointer(rebasing: buffer[copied..<(copied + count)]),
                from: start..<(start + count)
            )
            copied += count
            carriedOffset += count
            if carriedOffset == carried.count {
                carried = Data()
                carriedOffset = 0
            }
        }
        sentBytes += Int64(copied)
        return .bytes(copied)
    }

    /// Starts the body again from its first byte (libcurl's seek callback, for a resend on a fresh
    /// connection); only a reader can.
    ///
    /// - Throws: The reader's refusal.
    /// - Returns: `false` when the body cannot start over (no reader, or a position other than 0).
    mutating func rewind(toOffset offset: Int64, fromStart: Bool) throws -> Bool {
        guard case .reader(let reader) = source, offset == 0, fromStart else { return false }
        try reader.rewind()
        sentBytes = 0
        return true
    }

    /// The upload progress to report now, or `nil`: one per progress interval unless `force`d, and
    /// never twice for the same count.
    mutating func progress(force: Bool, now: ContinuousClock.Instant = .now) -> TransferProgress? {
        guard sentBytes != lastProgressBytes else { return nil }
        if !force, let lastProgress, lastProgress.duration(to: now) < Self.progressInterval { return nil }
        lastProgress = now
        lastProgressBytes = sentBytes
        return TransferProgress(completed: sentBytes, total: declaredLength)
    }
}
