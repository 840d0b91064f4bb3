internal import CCourierCurlShim
internal import CourierContentDecoding
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// The body's content codings, undone on the loop thread as the consumer reads (libcurl's own
/// decoding is off).
///
/// libcurl hands over the body as received. The bytes go into the transfer's `ContentDecoder`, and
/// decoded pieces of at most `decodedChunkSize` bytes come out only while the consumer has room,
/// the same room check an undecoded chunk gets. When the consumer is behind, the write callback
/// returns `CURL_WRITEFUNC_PAUSE`: libcurl keeps the raw chunk (and stops reading the socket), and
/// the decoder keeps the rest of its input and its state, so a 1000:1 stream holds at most one
/// network read of compressed bytes rather than its decoded size. libcurl delivers a paused chunk
/// again from its first byte; the bytes of it the decoder already has are skipped then
/// (`redeliveredEncodedBytes`).
extension CurlTransferState {
    /// The most decoded bytes handed over at once: libcurl's largest write (`CURL_MAX_WRITE_SIZE`),
    /// so that a decoded body overshoots the high-water mark by no more than an undecoded one.
    static let decodedChunkSize = 16 << 10

    /// libcurl's code for a body it cannot decode (`CURLE_BAD_CONTENT_ENCODING`), kept so that the
    /// error reads as it did when libcurl decoded.
    static let badContentEncodingCode = 61

    enum DrainOutcome {
        /// The decoder needs more input.
        case drained
        /// The consumer is behind; the demand handler resumes the transfer.
        case paused
        /// `pendingFailure` says why.
        case failed
    }

    /// Notes the coding of a response whose body is delivered, when the transport decodes it.
    func prepareContentDecoding(_ headers: HTTPHeaders) {
        bodyDecoder = nil
        redeliveredEncodedBytes = 0
        contentEncoding = nil
        guard decodesContent, !discardsBody else { return }
        let encoding = headers.values(for: "Content-Encoding").joined(separator: ",")
        if !encoding.isEmpty { contentEncoding = encoding }
    }

    /// The write callback for an encoded body: see the type's discussion.
    func receiveEncodedBody(_ chunk: UnsafeRawBufferPointer, encoding: String) -> Int {
        let decoder: ContentDecoder
        if let bodyDecoder {
            decoder = bodyDecoder
        } else {
            do {
                decoder = try ContentDecoder(contentEncoding: encoding)
            } catch {
                pendingFailure = decodingFailure(error)
                return 0
            }
            // Nothing to undo (`identity`): the body goes out as received.
            if decoder.codings.isEmpty {
                contentEncoding = nil
                return receiveBody(chunk)
            }
            bodyDecoder = decoder
        }
        switch drain(decoder) {
        case .failed: return 0
        case .paused: return pauseReceiving()
        case .drained: break
        }
        let alreadyFed = min(redeliveredEncodedBytes, chunk.count)
        redeliveredEncodedBytes -= alreadyFed
        decoder.feed(UnsafeRawBufferPointer(rebasing: chunk[alreadyFed...]))
        switch drain(decoder) {
        case .failed:
            return 0
        case .paused:
            // The decoder holds all of this chunk now, and libcurl will deliver it again.
            redeliveredEncodedBytes = chunk.count
            return pauseReceiving()
        case .drained:
            return chunk.count
        }
    }

    private func pauseReceiving() -> Int {
        receivePaused = true
        return courier_curl_writefunc_pause
    }

    /// Hands decoded pieces to the consumer while it has room and the decoder has output.
    func drain(_ decoder: ContentDecoder, ignoringRoom: Bool = false) -> DrainOutcome {
        while true {
            if download == nil && !ignoringRoom && !events.hasRoomForBody() { return .paused }
            let piece: Data
            do {
                guard let decoded = try decoder.read(maximumCount: Self.decodedChunkSize) else { return .drained }
                piece = decoded
            } catch {
                pendingFailure = decodingFailure(error)
                return .failed
            }
            guard deliverDecoded(piece) else { return .failed }
        }
    }

    /// Passes one decoded piece on (to the file or the consumer), counted against the body limit.
    func deliverDecoded(_ piece: Data) -> Bool {
        if let maximumBodySize, decodedBytes + Int64(piece.count) > maximumBodySize {
            pendingFailure = TransportError(
                category: .limitExceeded,
                message: "the decoded response body is larger than \(maximumBodySize) bytes",
                url: request.url
            )
            return false
        }
        if let download {
            do {
                try piece.withUnsafeBytes { try download.write($0, url: request.url) }
            } catch {
                pendingFailure =
                    error as? TransportError
                    ?? TransportError(
                        category: .other,
                        message: "writing the download failed: \(error)",
                        url: request.url,
                        underlying: error
                    )
                return false
            }
        } else {
            events.yield(.body(piece))
        }
        decodedBytes += Int64(piece.count)
        reportDownloadProgress(force: false)
        return true
    }

    /// At the end of the body: the stream must be complete. Returns the failure if it is not.
    func finishContentDecoding() -> TransportError? {
        guard let bodyDecoder else { return nil }
        bodyDecoder.finish()
        // Every byte was decoded before libcurl could end the transfer (a chunk whose output did not
        // fit was paused, not accepted), so this only checks the end; it delivers nothing in practice.
        if case .failed = drain(bodyDecoder, ignoringRoom: true) { return pendingFailure }
        return nil
    }

    func decodingFailure(_ error: ContentDecodingError) -> TransportError {
        TransportError(
            category: .contentDecodingFailed,
            code: Self.badContentEncodingCode,
            message: "the response body cannot be decoded (\(contentEncoding ?? "")): \(error)",
            url: request.url,
            underlying: error
        )
    }
}
