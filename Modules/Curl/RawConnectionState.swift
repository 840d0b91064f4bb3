internal import CCourierCurl
internal import CourierHTTP
internal import CourierTransport
internal import FoundationEssentials

/// A raw connection opened and kept by the loop: its easy handle stays in the multi handle for the
/// connection's life (libcurl closes a `CURLOPT_CONNECT_ONLY` connection whose handle leaves the
/// multi handle), and never goes to the ``EasyHandlePool``.
///
/// Loop thread only, like the transfer whose handle and options it holds.
final class RawConnectionState {
    /// A write not yet handed to the socket in full. The array is not mutated while it waits, so
    /// a retry after `CURLE_AGAIN` passes the same bytes at the same address, as OpenSSL requires
    /// of a retried `SSL_write`.
    struct PendingWrite {
        let bytes: [UInt8]
        var sent = 0
        let continuation: CheckedContinuation<Result<Void, TransportError>, Never>
    }

    let id: Int
    /// The handle, configured as a transfer of the request would be (trust, proxy, TLS, timeouts);
    /// it stays the user data of the handle's callbacks (the TLS context callback) while it lives.
    let transfer: CurlTransferState
    let producer: BackpressuredChannel<[UInt8], TransportError>.Producer
    /// Set until libcurl has connected (or failed to).
    var opening: CheckedContinuation<Result<Void, TransportError>, Never>?
    var socket: Int32 = -1
    var writes: [PendingWrite] = []
    /// `curl_easy_send` answered `CURLE_AGAIN`: wait for the socket to take more.
    var waitsForWritable = false
    /// The reader's buffer reached its high-water mark: the socket is not read until it drains.
    var readingPaused = false
    /// The stream ended (cleanly or not): the socket is not read again.
    var readEnded = false
    /// Something changed (a command, the socket became ready): service the connection this pass.
    var needsService = false

    init(
        id: Int,
        transfer: CurlTransferState,
        producer: BackpressuredChannel<[UInt8], TransportError>.Producer,
        opening: CheckedContinuation<Result<Void, TransportError>, Never>
    ) {
        self.id = id
        self.transfer = transfer
        self.producer = producer
        self.opening = opening
    }

    var url: URL { transfer.request.url }

    /// The poll events to wait for on the socket (`CURL_WAIT_POLLIN` and `CURL_WAIT_POLLOUT` have
    /// `poll(2)`'s values): readable while the reader has room,
    /// writable while a write waits after `CURLE_AGAIN`.
    var pollEvents: Int16 {
        guard opening == nil, socket >= 0 else { return 0 }
        var events: Int16 = 0
        if !readEnded && !readingPaused { events |= Int16(CURL_WAIT_POLLIN) }
        if waitsForWritable { events |= Int16(CURL_WAIT_POLLOUT) }
        return events
    }

    /// Ends everything pending with `failure`: the opening, the writes, and the reads (after what
    /// is already buffered).
    func fail(_ failure: TransportError) {
        opening?.resume(returning: .failure(failure))
        opening = nil
        for write in writes { write.continuation.resume(returning: .failure(failure)) }
        writes.removeAll()
        readEnded = true
        producer.finish(throwing: failure)
    }
}
