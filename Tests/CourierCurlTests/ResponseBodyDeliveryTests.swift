import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

@Suite struct ResponseBodyDeliveryTests {
    private let url = URL(string: "http://127.0.0.1/body")!

    /// `abcdefgh` repeated 8192 times (64 KiB), gzip-compressed to 138 bytes.
    private static let gzipped = Data(
        base64Encoded:
            "H4sIAAAAAAACA+3FMQEAIAgAsKwICP0TGMTtWZysvrNh27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt27Zt2/76B3HwgRcAAAEA"
    )!

    private static func coded(_ coding: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        try? headers.add(name: "Content-Encoding", value: coding)
        return headers
    }

    private func makeDelivery(
        highWaterMark: Int = 1 << 20,
        limit: Int64? = nil,
        decodes: Bool = false
    ) -> (ResponseBodyDelivery<TransferEventSource>, TransferEvents) {
        let (events, source) = TransferEvents.makeEvents(highWaterMark: highWaterMark, lowWaterMark: 0)
        let delivery = ResponseBodyDelivery(
            sink: source,
            url: url,
            maximumBodySize: limit,
            decodesContent: decodes,
            download: nil
        )
        return (delivery, events)
    }

    private func receive(_ delivery: inout ResponseBodyDelivery<TransferEventSource>, _ bytes: Data) -> String {
        let step = bytes.withUnsafeBytes { delivery.receive($0) }
        switch step {
        case .accepted: return "accepted"
        case .paused: return "paused"
        case .failed(let error): return "failed \(error.category) \(error.message)"
        }
    }

    /// The body chunks queued so far, without waiting for more.
    private func bodySizes(_ events: TransferEvents, count: Int) async -> [Int] {
        var sizes: [Int] = []
        var iterator = events.makeAsyncIterator()
        while sizes.count < count, let event = await iterator.next() {
            if case .body(let chunk) = event { sizes.append(chunk.count) }
        }
        return sizes
    }

    @Test func dropsBodyBytesBeforeAHead() {
        var (delivery, events) = makeDelivery()
        #expect(receive(&delivery, Data(count: 10)) == "accepted")
        #expect(events.bufferedBodyBytes == 0)
        #expect(delivery.decodedBytes == 0)
    }

    @Test func pausesWhenTheConsumerIsFullAndResumesOnDemand() async {
        // Given: a high-water mark of 10 bytes
        var (delivery, events) = makeDelivery(highWaterMark: 10)
        delivery.begin(headers: HTTPHeaders(), discardsBody: false, expectedBodyBytes: 30)

        // When: a 12-byte chunk goes, the next one is refused
        #expect(receive(&delivery, Data(count: 12)) == "accepted")
        #expect(receive(&delivery, Data(count: 12)) == "paused")

        // Then: the refused chunk was not counted; demand unpauses
        #expect(delivery.isPaused)
        #expect(delivery.decodedBytes == 12)
        #expect(await bodySizes(events, count: 1) == [12])
        guard case .resume(nil) = delivery.demandArrived() else {
            Issue.record("expected to resume")
            return
        }
        #expect(!delivery.isPaused)
        if case .stayPaused = delivery.demandArrived() {} else { Issue.record("a second demand must do nothing") }
    }

    @Test func failsPastTheBodyLimit() {
        var (delivery, _) = makeDelivery(limit: 15)
        delivery.begin(headers: HTTPHeaders(), discardsBody: false, expectedBodyBytes: nil)
        #expect(receive(&delivery, Data(count: 10)) == "accepted")
        #expect(
            receive(&delivery, Data(count: 10))
                == "failed limitExceeded the decoded response body is larger than 15 bytes"
        )
    }

    @Test func discardsTheBodyOfAResponseNotDelivered() {
        var (delivery, events) = makeDelivery()
        delivery.begin(headers: HTTPHeaders(), discardsBody: true, expectedBodyBytes: nil)
        #expect(receive(&delivery, Data(count: 10)) == "accepted")
        #expect(events.bufferedBodyBytes == 0)
    }

    @Test func knowsWhenTheDeclaredLengthHasArrived() {
        var (delivery, _) = makeDelivery()
        delivery.begin(headers: HTTPHeaders(), discardsBody: false, expectedBodyBytes: 8)
        _ = receive(&delivery, Data(count: 5))
        #expect(!delivery.hasDeliveredDeclaredLength)
        _ = receive(&delivery, Data(count: 3))
        #expect(delivery.hasDeliveredDeclaredLength)
    }

    @Test func decodesGzipInPiecesThatRespectTheHighWaterMark() async {
        // Given: 64 KiB of decoded body behind 138 compressed bytes, and a 20 KiB high-water mark
        var (delivery, events) = makeDelivery(highWaterMark: 20 << 10, decodes: true)
        delivery.begin(headers: Self.coded("gzip"), discardsBody: false, expectedBodyBytes: nil)

        // When: the whole compressed body arrives in one write
        #expect(receive(&delivery, Self.gzipped) == "paused")

        // Then: two 16 KiB pieces went out (the second reached the mark), the rest waits in the decoder
        #expect(events.bufferedBodyBytes == 32 << 10)
        #expect(delivery.decodedBytes == 32 << 10)
        #expect(await bodySizes(events, count: 2) == [16 << 10, 16 << 10])

        // The consumer drained: demand hands over the decoder's held output first
        guard case .resume(nil) = delivery.demandArrived() else {
            Issue.record("expected to resume")
            return
        }
        #expect(delivery.decodedBytes == 64 << 10)

        // libcurl delivers the paused chunk again: the decoder already has it
        #expect(receive(&delivery, Self.gzipped) == "accepted")
        #expect(delivery.decodedBytes == 64 << 10)
        #expect(delivery.finish() == nil)
    }

    @Test func aDecodedBombStopsAtTheBodyLimit() {
        var (delivery, _) = makeDelivery(limit: 40 << 10, decodes: true)
        delivery.begin(headers: Self.coded("gzip"), discardsBody: false, expectedBodyBytes: nil)
        #expect(
            receive(&delivery, Self.gzipped)
                == "failed limitExceeded the decoded response body is larger than 40960 bytes"
        )
    }

    @Test func reportsAnUnknownCodingAsADecodingFailure() {
        var (delivery, _) = makeDelivery(decodes: true)
        delivery.begin(headers: Self.coded("snappy"), discardsBody: false, expectedBodyBytes: nil)
        let step = Data(count: 4).withUnsafeBytes { delivery.receive($0) }
        guard case .failed(let error) = step else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.category == .contentDecodingFailed)
        #expect(error.code == 61)
    }

    @Test func aTruncatedEncodedBodyFailsAtTheEnd() {
        var (delivery, _) = makeDelivery(decodes: true)
        delivery.begin(headers: Self.coded("gzip"), discardsBody: false, expectedBodyBytes: nil)
        #expect(receive(&delivery, Self.gzipped.prefix(40)) == "accepted")
        #expect(delivery.finish()?.category == .contentDecodingFailed)
    }

    @Test func identityPassesTheBodyAsReceived() async {
        var (delivery, events) = makeDelivery(decodes: true)
        delivery.begin(headers: Self.coded("identity"), discardsBody: false, expectedBodyBytes: 3)
        #expect(receive(&delivery, Data("abc".utf8)) == "accepted")
        #expect(delivery.contentEncoding == nil)
        #expect(await bodySizes(events, count: 1) == [3])
    }
}
