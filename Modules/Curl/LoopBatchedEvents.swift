internal import CourierTransport

/// A transfer's events as its libcurl callbacks see them: the same producer calls as
/// `TransferEventSource`, but a yield that wakes the consumer leaves the wake-up with the loop, which
/// resumes every wake-up of one iteration together before it polls, or holds it a little longer
/// for a fast download (``ConsumerWakeHolds``).
///
/// Loop thread only, like the ``CurlTransferState`` that holds it.
struct LoopBatchedEvents {
    let events: TransferEventSource
    unowned let loop: CurlLoop
    /// The transfer's ``CurlTransferState/id``, which the loop's wake-up holds are keyed by.
    let transferID: Int

    func yield(_ event: TransferEvent) {
        loop.yieldDeferringResume(event, to: events, transferID: transferID)
    }

    func hasRoomForBody() -> Bool {
        events.hasRoomForBody()
    }

    func wouldHaveRoomForBody(after pendingBytes: Int) -> Bool {
        events.wouldHaveRoomForBody(after: pendingBytes)
    }

    var isConsumerDone: Bool { events.isConsumerDone }

    var bufferedBodyBytes: Int { events.bufferedBodyBytes }
}
