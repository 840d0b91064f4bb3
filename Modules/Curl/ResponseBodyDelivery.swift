internal import CCourierCurlShim
internal import CourierContentDecoding
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// What the write callback answers (``ResponseBodyDelivery/receive(_:)``).
///
/// Outside the generic delivery on purpose: nested in it, the enum was generic too, and the
/// callback's `switch` copied each answer through value witnesses, about 400 instructions for
/// every 16 KiB libcurl writes (callgrind).
enum ResponseBodyStep {
    /// The chunk was taken (delivered, written, decoded or discarded).
    case accepted
    /// The consumer is behind; the demand handler resumes the transfer.
    case paused
    /// The transfer stops; the error says why.
    case failed(TransportError)
}

/// What a demand from the consumer does to a paused transfer
/// (``ResponseBodyDelivery/demandArrived(draining:)``).
enum ResponseBodyDemand {
    /// Nothing was paused, or the decoder's held output filled the consumer again.
    case stayPaused
    /// Unpause libcurl; a decoding failure (if any) is reported once libcurl delivers again.
    case resume(failure: TransportError?)
}

/// A transfer's response body on its way to the consumer or the download file: the room check that
/// pauses libcurl, the body limit, the content decoder and download progress.
///
/// Loop thread only, like the ``CurlTransferState`` that holds it.
///
/// libcurl hands over the body as received (its own decoding is off). An encoded body goes into a
/// `ContentDecoder`, and decoded pieces of at most ``decodedChunkSize`` bytes come out only while the
/// consumer has room, the same room check an undecoded chunk gets. When the consumer is behind,
/// ``receive(_:)`` answers ``ResponseBodyStep/paused`` (the write callback returns `CURL_WRITEFUNC_PAUSE`):
/// libcurl keeps the raw chunk (and stops reading the socket), and the decoder keeps the rest of its
/// input and its state, so a 1000:1 stream holds at most one network read of compressed bytes rather
/// than its decoded size. libcurl delivers a paused chunk again from its first byte; the bytes of it
/// the decoder already has are skipped then (`redeliveredEncodedBytes`).
struct ResponseBodyDelivery<Sink: TransferEventSink> {
    typealias Step = ResponseBodyStep
    typealias Demand = ResponseBodyDemand

    /// The most decoded bytes handed over at once: libcurl's largest write (`CURL_MAX_WRITE_SIZE`),
    /// so that a decoded body overshoots the high-water mark by no more than an undecoded one.
    static var decodedChunkSize: Int { 16 << 10 }

    /// libcurl's code for a body it cannot decode (`CURLE_BAD_CONTENT_ENCODING`), kept so that the
    /// error reads as it did when libcurl decoded.
    static var badContentEncodingCode: Int { 61 }

    let sink: Sink
    let url: URL
    let maximumBodySize: Int64?
    /// Whether the transport asked for compressed codings and so decodes the body itself (set while
    /// the transfer is configured).
    var decodesContent: Bool
    /// The file the body goes to instead of the consumer (set while the transfer is configured).
    var download: DownloadFile?
    /// Where large chunks are copied to for the consumer (the loop's); `nil` copies each into a
    /// `Data` of its own.
    let chunkBuffers: BodyChunkBuffers?

    /// Whether a head was accepted: body bytes before it (an answered challenge's) are dropped.
    private(set) var isOpen = false
    /// Body bytes after a response that is not delivered (redirects to a file, a failed resume's
    /// error page).
    private(set) var discardsBody = false
    private(set) var decodedBytes: Int64 = 0
    private(set) var expectedBodyBytes: Int64?
    private(set) var isPaused = false
    /// The current response's `Content-Encoding` while it is decoded; the decoder is made at the
    /// first body byte, as libcurl refused an unknown coding only once a body came.
    private(set) var contentEncoding: String?
    private var decoder: ContentDecoder?
    /// Chunks not yet handed over as one `.body` event (see ``flushGathered()``).
    private var gathered = GatheredBodyChunks()
    private var redeliveredEncodedBytes = 0
    /// When the last progress event went out (``ProgressClock``), or `nil` before the first head.
    private var lastProgress: Int64?

    init(
        sink: Sink,
        url: URL,
        maximumBodySize: Int64?,
        decodesContent: Bool,
        download: DownloadFile?,
        chunkBuffers: BodyChunkBuffers? = nil
    ) {
        self.sink = sink
        self.chunkBuffers = chunkBuffers
        self.url = url
        self.maximumBodySize = maximumBodySize
        self.decodesContent = decodesContent
        self.download = download
    }

    /// Starts the body of a head that was just reported (a redirect's or the final response's).
    ///
    /// The first progress event comes a progress interval after the head, so a small response costs
    /// one final progress event rather than two. `mayNameContentCoding: false` says the head has no
    /// `Content-Encoding` field (the parser's framing facts know), so its fields are not searched.
    mutating func begin(
        headers: HTTPHeaders,
        discardsBody: Bool,
        expectedBodyBytes: Int64?,
        mayNameContentCoding: Bool = true
    ) {
        // The last response's body goes before this head, whose event the caller yields next.
        flushGathered()
        isOpen = true
        self.discardsBody = discardsBody
        self.expectedBodyBytes = expectedBodyBytes
        lastProgress = ProgressClock.nowMilliseconds()
        decoder = nil
        redeliveredEncodedBytes = 0
        contentEncoding = nil
        guard decodesContent, !discardsBody, mayNameContentCoding else { return }
        let encoding = headers.values(for: "Content-Encoding").joined(separator: ",")
        if !encoding.isEmpty { contentEncoding = encoding }
    }

    /// Whether an undecoded body has reached its declared length.
    var hasDeliveredDeclaredLength: Bool {
        guard contentEncoding == nil, let expectedBodyBytes else { return false }
        return decodedBytes >= expectedBodyBytes
    }

    /// One chunk of body as libcurl received it. The room check comes before anything is counted:
    /// a paused chunk is delivered again.
    mutating func receive(_ chunk: UnsafeRawBufferPointer) -> Step {
        if discardsBody || !isOpen { return .accepted }
        if let contentEncoding { return receiveEncoded(chunk, encoding: contentEncoding) }
        if let failure = checkLimit(adding: chunk.count) { return .failed(failure) }
        if let download {
            do {
                try download.write(chunk, url: url)
            } catch {
                return .failed(error)
            }
        } else {
            if gathered.isEmpty || !sink.wouldHaveRoomForBody(after: gathered.count) {
                // Gathered bytes that reach the mark go out now, so the consumer holds them before
                // libcurl may wait for it; the chunk is then judged as any other.
                flushGathered()
                guard sink.hasRoomForBody() else { return pause() }
            }
            deliver(chunk)
        }
        decodedBytes += Int64(chunk.count)
        reportProgress(force: false)
        return .accepted
    }

    /// Hands an undecoded chunk on: gathered with the chunks before it when it can be, else as a
    /// `Data` of its own after them.
    private mutating func deliver(_ chunk: UnsafeRawBufferPointer) {
        guard let chunkBuffers else { return sink.yield(.body(Data(chunk))) }
        if !gathered.accepts(chunk) { flushGathered() }
        if gathered.accepts(chunk) {
            gathered.append(chunk, from: chunkBuffers)
        } else {
            sink.yield(.body(chunkBuffers.data(copying: chunk)))
        }
    }

    /// Whether chunks wait to be handed over: the owner then calls ``flushGathered()`` at the end of
    /// the loop's pass.
    var hasGathered: Bool { !gathered.isEmpty }

    /// The bytes gathered and not yet handed over.
    var gatheredBytes: Int { gathered.count }

    /// Hands the gathered chunks on as one `.body` event. Called before every later event of the
    /// transfer (a head, progress, the end) and at the end of each pass of the loop.
    mutating func flushGathered() {
        guard !gathered.isEmpty, let chunkBuffers, let data = gathered.take(from: chunkBuffers) else { return }
        sink.yield(.body(data))
    }

    /// Gives the gathering buffer back to the pool when the transfer is over.
    mutating func releaseGatheringBuffer() {
        guard let chunkBuffers else { return }
        gathered.release(to: chunkBuffers)
    }

    private mutating func pause() -> Step {
        isPaused = true
        return .paused
    }

    private func checkLimit(adding count: Int) -> TransportError? {
        guard let maximumBodySize, decodedBytes + Int64(count) > maximumBodySize else { return nil }
        return TransportError(
            category: .limitExceeded,
            message: "the decoded response body is larger than \(maximumBodySize) bytes",
            url: url
        )
    }

    private mutating func receiveEncoded(_ chunk: UnsafeRawBufferPointer, encoding: String) -> Step {
        let decoder: ContentDecoder
        if let current = self.decoder {
            decoder = current
        } else {
            do {
                decoder = try ContentDecoder(contentEncoding: encoding)
            } catch {
                return .failed(decodingFailure(error))
            }
            // Nothing to undo (`identity`): the body goes out as received.
            if decoder.codings.isEmpty {
                contentEncoding = nil
                return receive(chunk)
            }
            self.decoder = decoder
        }
        switch drain(decoder) {
        case .failed(let failure): return .failed(failure)
        case .paused: return pause()
        case .accepted: break
        }
        let alreadyFed = min(redeliveredEncodedBytes, chunk.count)
        redeliveredEncodedBytes -= alreadyFed
        decoder.feed(UnsafeRawBufferPointer(rebasing: chunk[alreadyFed...]))
        switch drain(decoder) {
        case .failed(let failure):
            return .failed(failure)
        case .paused:
            // The decoder holds all of this chunk now, and libcurl will deliver it again.
            redeliveredEncodedBytes = chunk.count
            return pause()
        case .accepted:
            return .accepted
        }
    }

    /// Hands decoded pieces on while the consumer has room and the decoder has output
    /// (``ResponseBodyStep/accepted`` once the decoder needs more input).
    private mutating func drain(_ decoder: ContentDecoder, ignoringRoom: Bool = false) -> Step {
        while true {
            if download == nil && !ignoringRoom && !sink.hasRoomForBody() { return .paused }
            let piece: Data
            do {
                guard let decoded = try decoder.read(maximumCount: Self.decodedChunkSize) else { return .accepted }
                piece = decoded
            } catch {
                return .failed(decodingFailure(error))
            }
            if let failure = deliverDecoded(piece) { return .failed(failure) }
        }
    }

    /// Passes one decoded piece on (to the file or the consumer), counted against the body limit.
    private mutating func deliverDecoded(_ piece: Data) -> TransportError? {
        if let failure = checkLimit(adding: piece.count) { return failure }
        if let download {
            do {
                try piece.withUnsafeBytes { try download.write($0, url: url) }
            } catch {
                return error as? TransportError
                    ?? TransportError(
                        category: .other,
                        message: "writing the download failed: \(error)",
                        url: url,
                        underlying: error
                    )
            }
        } else {
            sink.yield(.body(piece))
        }
        decodedBytes += Int64(piece.count)
        reportProgress(force: false)
        return nil
    }

    /// The consumer drained its buffer. Decoded output the decoder still holds goes first (when
    /// `draining`: not after a failure); libcurl's held chunk only after it.
    mutating func demandArrived(draining: Bool = true) -> Demand {
        guard isPaused else { return .stayPaused }
        var failure: TransportError?
        if draining, let decoder {
            switch drain(decoder) {
            case .paused: return .stayPaused
            case .failed(let error): failure = error
            case .accepted: break
            }
        }
        isPaused = false
        return .resume(failure: failure)
    }

    /// At the end of the body: the stream must be complete. Returns the failure if it is not.
    mutating func finish() -> TransportError? {
        guard let decoder else { return nil }
        decoder.finish()
        // Every byte was decoded before libcurl could end the transfer (a chunk whose output did not
        // fit was paused, not accepted), so this only checks the end; it delivers nothing in practice.
        if case .failed(let failure) = drain(decoder, ignoringRoom: true) { return failure }
        return nil
    }

    /// Reports download progress, at most once per progress interval unless `force`d.
    mutating func reportProgress(force: Bool) {
        let now = ProgressClock.nowMilliseconds()
        if !force, let lastProgress, now - lastProgress < ProgressClock.intervalMilliseconds { return }
        lastProgress = now
        let completed = download?.length ?? decodedBytes
        // The bytes the progress counts reach the consumer first.
        flushGathered()
        sink.yield(.downloadProgress(TransferProgress(completed: completed, total: expectedBodyBytes)))
    }

    private func decodingFailure(_ error: ContentDecodingError) -> TransportError {
        TransportError(
            category: .contentDecodingFailed,
            code: Self.badContentEncodingCode,
            message: "the response body cannot be decoded (\(contentEncoding ?? "")): \(error)",
            url: url,
            underlying: error
        )
    }
}
