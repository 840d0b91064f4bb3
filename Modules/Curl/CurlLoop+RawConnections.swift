internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// A raw connection handed to the loop: the request whose origin it connects to, and the producer
/// of its reader's channel.
struct PendingRawConnection: Sendable {
    let id: Int
    let request: HTTPRequest
    let producer: BackpressuredChannel<[UInt8], TransportError>.Producer
}

/// Raw connections on the loop thread.
///
/// A raw connection is a transfer's handle (the same options, trust hook and proxy settings) with
/// `CURLOPT_CONNECT_ONLY`: libcurl connects (tunnel and TLS handshake included) in
/// the loop's libcurl pass and reports `CURLMSG_DONE`; from then on the loop moves bytes with
/// `curl_easy_send` and `curl_easy_recv` and waits for the socket in its own poll, beside
/// libcurl's sockets.
extension CurlLoop {
    func openRawConnection(
        _ pending: PendingRawConnection,
        _ continuation: CheckedContinuation<Result<Void, TransportError>, Never>
    ) {
        // Its own event source, never read: a raw connection reports through its continuation and
        // channel, and nothing on its handle yields events (no request is sent).
        let (_, events) = TransferEvents.makeEvents(highWaterMark: 1, lowWaterMark: 0)
        let request = CurlTransferState.rawConnectionRequest(pending.request)
        let transferSetup = PendingTransfer(
            id: pending.id,
            request: request,
            options: TransferOptions(),
            events: events,
            requestBodyPipe: nil
        )
        let transfer: CurlTransferState
        switch makeTransfer(transferSetup, pooled: false) {
        case .failure(let error):
            continuation.resume(returning: .failure(error))
            return
        case .success(let made):
            transfer = made
        }
        do {
            try transfer.configureForRawConnection()
        } catch {
            transfer.finished = true
            continuation.resume(returning: .failure(error))
            return
        }
        transfer.startDate = .now
        let code = curl_multi_add_handle(multi, transfer.easy)
        guard code == CURLM_OK else {
            transfer.finished = true
            continuation.resume(
                returning: .failure(
                    TransportError(
                        category: .other,
                        code: Int(code.rawValue),
                        message: "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(code)))",
                        url: request.url
                    )
                )
            )
            return
        }
        rawConnections[pending.id] = RawConnectionState(
            id: pending.id,
            transfer: transfer,
            producer: pending.producer,
            opening: continuation
        )
    }

    /// libcurl finished connecting `connection` (`CURLMSG_DONE`): the connection is open, or failed.
    func rawConnectionConnected(_ connection: RawConnectionState, code: CURLcode) {
        guard let opening = connection.opening else { return }
        connection.opening = nil
        if code == CURLE_OK, let socket = connection.transfer.activeSocket {
            connection.socket = socket
            connection.needsService = true
            opening.resume(returning: .success(()))
            return
        }
        let failure =
            code == CURLE_OK
            ? TransportError(
                category: .connectionLost,
                message: "libcurl connected but reports no socket",
                url: connection.url
            )
            : connection.transfer.rawConnectionFailure(code: code)
        opening.resume(returning: .failure(failure))
        remove(connection)
    }

    func writeRaw(
        _ id: Int,
        _ bytes: [UInt8],
        _ continuation: CheckedContinuation<Result<Void, TransportError>, Never>
    ) {
        guard let connection = rawConnections[id], connection.opening == nil else {
            continuation.resume(
                returning: .failure(TransportError(category: .cancelled, message: "the connection was closed"))
            )
            return
        }
        connection.writes.append(RawConnectionState.PendingWrite(bytes: bytes, continuation: continuation))
        connection.needsService = true
    }

    /// Ends connection `id` with `failure` for whatever is pending, and closes its socket.
    func closeRawConnection(_ id: Int, failure: TransportError) {
        guard let connection = rawConnections[id] else { return }
        connection.fail(
            TransportError(category: failure.category, message: failure.message, url: connection.url)
        )
        remove(connection)
    }

    /// The teardown: every raw connection fails with `shutDown`.
    func closeAllRawConnections() {
        for connection in rawConnections.values {
            connection.fail(Self.shutDownError(connection.url))
            remove(connection)
        }
        rawReadBuffer?.deallocate()
        rawReadBuffer = nil
    }

    /// Takes the handle out of the multi handle, which closes the connection; the transfer's deinit
    /// cleans the handle up (it never goes to the pool).
    private func remove(_ connection: RawConnectionState) {
        rawConnections[connection.id] = nil
        curl_multi_remove_handle(multi, connection.transfer.easy)
        connection.transfer.finished = true
    }

    // MARK: Moving bytes

    /// Services the connections that a command or their socket woke.
    func serviceRawConnections() {
        for connection in rawConnections.values where connection.needsService && connection.opening == nil {
            connection.needsService = false
            sendPendingWrites(connection)
            receive(connection)
        }
    }

    private func sendPendingWrites(_ connection: RawConnectionState) {
        connection.waitsForWritable = false
        while !connection.writes.isEmpty {
            var sent = 0
            let offset = connection.writes[0].sent
            let code = connection.writes[0].bytes.withUnsafeBytes { bytes -> CURLcode in
                guard let base = bytes.baseAddress else { return CURLE_OK }
                return curl_easy_send(connection.transfer.easy, base + offset, bytes.count - offset, &sent)
            }
            if code == CURLE_AGAIN {
                connection.waitsForWritable = true
                return
            }
            guard code == CURLE_OK else {
                let failure = streamFailure(connection, code: code)
                for write in connection.writes { write.continuation.resume(returning: .failure(failure)) }
                connection.writes.removeAll()
                return
            }
            connection.writes[0].sent += sent
            if connection.writes[0].sent >= connection.writes[0].bytes.count {
                connection.writes.removeFirst().continuation.resume(returning: .success(()))
            }
        }
    }

    /// Reads until `CURLE_AGAIN`, the end of the stream, or a full reader's buffer: TLS can hold
    /// decrypted bytes that a poll of the socket does not show, so one read per wake-up is not
    /// enough.
    private func receive(_ connection: RawConnectionState) {
        let buffer: UnsafeMutableRawBufferPointer
        if let rawReadBuffer {
            buffer = rawReadBuffer
        } else {
            buffer = .allocate(byteCount: CurlRawConnection.readChunkSize, alignment: 16)
            rawReadBuffer = buffer
        }
        guard let base = buffer.baseAddress else { return }
        while !connection.readEnded {
            // `hasRoom` arms the demand handler when it answers no: the reader's next drain posts
            // `rawDemand`, which reads again (and finds what TLS kept meanwhile).
            guard connection.producer.hasRoom() else {
                connection.readingPaused = true
                return
            }
            var received = 0
            let code = curl_easy_recv(connection.transfer.easy, base, buffer.count, &received)
            if code == CURLE_AGAIN { return }
            guard code == CURLE_OK else {
                connection.readEnded = true
                connection.producer.finish(throwing: streamFailure(connection, code: code))
                return
            }
            guard received > 0 else {
                connection.readEnded = true
                connection.producer.finish()
                return
            }
            connection.producer.yield(Array(UnsafeRawBufferPointer(start: base, count: received)))
        }
    }

    private func streamFailure(_ connection: RawConnectionState, code: CURLcode) -> TransportError {
        CurlErrorMapping.error(
            code: Int(code.rawValue),
            errorBuffer: String(cString: connection.transfer.errorBuffer),
            url: connection.url,
            metrics: nil
        )
    }
}
