import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

/// Body chunks of one pass go out as one event, in order, before anything that follows them, and
/// without holding a buffer larger than twice what it carries.
@Suite struct GatheredBodyChunksTests {
    private let url = URL(string: "http://127.0.0.1/body")!

    private static func bytes(_ count: Int, _ value: UInt8) -> Data { Data(repeating: value, count: count) }

    private func makeDelivery(
        highWaterMark: Int = 1 << 20,
        buffers: BodyChunkBuffers
    ) -> (ResponseBodyDelivery<TransferEventSource>, TransferEvents) {
        let (events, source) = TransferEvents.makeEvents(highWaterMark: highWaterMark, lowWaterMark: 0)
        var delivery = ResponseBodyDelivery(
            sink: source,
            url: url,
            maximumBodySize: nil,
            decodesContent: false,
            download: nil,
            chunkBuffers: buffers
        )
        delivery.begin(headers: HTTPHeaders(), discardsBody: false, expectedBodyBytes: nil)
        return (delivery, events)
    }

    private func receive(_ delivery: inout ResponseBodyDelivery<TransferEventSource>, _ bytes: Data) -> String {
        switch bytes.withUnsafeBytes({ delivery.receive($0) }) {
        case .accepted: "accepted"
        case .paused: "paused"
        case .failed(let error): "failed \(error.message)"
        }
    }

    /// The events queued so far, named; reads `count` of them.
    private func read(_ events: TransferEvents, count: Int) async -> [String] {
        var seen: [String] = []
        var iterator = events.makeAsyncIterator()
        while seen.count < count, let event = await iterator.next() {
            switch event {
            case .body(let chunk): seen.append("body \(chunk.count) \(chunk.first ?? 0)...\(chunk.last ?? 0)")
            case .downloadProgress(let progress): seen.append("progress \(progress.completed)")
            case .response: seen.append("response")
            default: seen.append("other")
            }
        }
        return seen
    }

    @Test func chunksOfAPassGoOutAsOneEventInOrder() async {
        // Given
        let buffers = BodyChunkBuffers()
        var (delivery, events) = makeDelivery(buffers: buffers)

        // When: three writes of a read, then the end of the pass
        #expect(receive(&delivery, Self.bytes(16 << 10, 1)) == "accepted")
        #expect(receive(&delivery, Self.bytes(16 << 10, 2)) == "accepted")
        #expect(receive(&delivery, Self.bytes(100, 3)) == "accepted")
        #expect(events.bufferedBodyBytes == 0)
        #expect(delivery.hasGathered)
        delivery.flushGathered()

        // Then
        #expect(!delivery.hasGathered)
        #expect(events.bufferedBodyBytes == (32 << 10) + 100)
        #expect(await read(events, count: 1) == ["body \((32 << 10) + 100) 1...3"])
    }

    @Test func aSmallChunkAloneGoesOutAtOnce() async {
        // Given
        let buffers = BodyChunkBuffers()
        var (delivery, events) = makeDelivery(buffers: buffers)

        // When: a small response's body
        #expect(receive(&delivery, Self.bytes(100, 7)) == "accepted")

        // Then: nothing to gather, nothing to flush
        #expect(!delivery.hasGathered)
        #expect(await read(events, count: 1) == ["body 100 7...7"])
    }

    @Test func progressAndTheNextHeadComeAfterTheGatheredBytes() async {
        // Given
        let buffers = BodyChunkBuffers()
        var (delivery, events) = makeDelivery(buffers: buffers)
        _ = receive(&delivery, Self.bytes(16 << 10, 1))

        // When
        delivery.reportProgress(force: true)
        _ = receive(&delivery, Self.bytes(16 << 10, 2))
        delivery.begin(headers: HTTPHeaders(), discardsBody: false, expectedBodyBytes: nil)

        // Then: each flushed what came before it
        #expect(
            await read(events, count: 3) == [
                "body \(16 << 10) 1...1", "progress \(16 << 10)", "body \(16 << 10) 2...2",
            ]
        )
    }

    @Test func aFullConsumerGetsTheGatheredBytesBeforeTheTransferPauses() async {
        // Given: room for 40 KiB
        let buffers = BodyChunkBuffers()
        var (delivery, events) = makeDelivery(highWaterMark: 40 << 10, buffers: buffers)

        // When: 16 KiB writes; the gathered ones count against the mark
        #expect(receive(&delivery, Self.bytes(16 << 10, 1)) == "accepted")
        #expect(receive(&delivery, Self.bytes(16 << 10, 2)) == "accepted")
        #expect(receive(&delivery, Self.bytes(16 << 10, 3)) == "accepted")
        #expect(receive(&delivery, Self.bytes(16 << 10, 4)) == "paused")

        // Then: the consumer holds what was gathered (the mark plus one write at most), so its
        // reading makes the room that resumes the transfer
        #expect(!delivery.hasGathered)
        #expect(events.bufferedBodyBytes == 48 << 10)
        #expect(events.bufferedBodyBytes <= (40 << 10) + (16 << 10))
        #expect(await read(events, count: 1) == ["body \(48 << 10) 1...3"])
    }

    @Test func aFullBufferIsHandedOverAndAPartOneIsCopiedToItsSize() {
        // Given
        let buffers = BodyChunkBuffers()
        var gathered = GatheredBodyChunks()
        let write = Data(repeating: 5, count: 16 << 10)

        // When: a whole buffer's worth
        for _ in 0..<(GatheredBodyChunks.capacity / write.count) {
            write.withUnsafeBytes { #expect(gathered.accepts($0)) }
            write.withUnsafeBytes { gathered.append($0, from: buffers) }
        }
        write.withUnsafeBytes { #expect(!gathered.accepts($0)) }
        let whole = gathered.take(from: buffers)

        // Then: it goes out in its own buffer
        #expect(whole?.count == GatheredBodyChunks.capacity)
        #expect(gathered.isEmpty)

        // When: two writes only
        write.withUnsafeBytes { gathered.append($0, from: buffers) }
        write.withUnsafeBytes { gathered.append($0, from: buffers) }
        let part = gathered.take(from: buffers)

        // Then: copied out (into a 32 KiB buffer), and the gathering buffer stays for the next ones
        #expect(part == Data(repeating: 5, count: 32 << 10))
        let idleBefore = buffers.idleCount
        gathered.release(to: buffers)
        #expect(buffers.idleCount == idleBefore + 1)
    }

    @Test func gatheringStartsOnlyWithAPooledSizeChunk() {
        let gathered = GatheredBodyChunks()
        Data(count: 100).withUnsafeBytes { #expect(!gathered.accepts($0)) }
        Data(count: BodyChunkBuffers.smallestPooledSize).withUnsafeBytes { #expect(gathered.accepts($0)) }
        Data(count: GatheredBodyChunks.capacity + 1).withUnsafeBytes { #expect(!gathered.accepts($0)) }
    }
}
