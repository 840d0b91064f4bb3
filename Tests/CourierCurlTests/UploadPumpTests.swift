import CourierHTTP
import CourierLocking
import CourierTransport
import Foundation
import Testing

@testable import CourierCurl

@Suite struct UploadPumpTests {
    private let url = URL(string: "http://127.0.0.1/upload")!

    private struct ProducerFailed: Error {}

    /// Fills a buffer of `size` bytes and describes the step.
    private func fill(_ pump: inout UploadPump, size: Int) -> (String, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: size)
        let step = buffer.withUnsafeMutableBytes { pump.fill($0) }
        switch step {
        case .bytes(let count): return ("bytes \(count)", Array(buffer.prefix(count)))
        case .end: return ("end", [])
        case .pause(let instant): return (instant == nil ? "pause" : "pause until", [])
        case .failed(let error): return ("failed \(error.category)", [])
        }
    }

    @Test func pumpsAReaderAndRewindsIt() throws {
        // Given
        let reader = try #require(try HTTPBody(Data("hello".utf8)).makeReader())
        var pump = UploadPump(source: .reader(reader), url: url, declaredLength: 5)

        // When
        let first = fill(&pump, size: 3)
        let second = fill(&pump, size: 3)
        let third = fill(&pump, size: 3)

        // Then
        #expect(first.0 == "bytes 3" && first.1 == Array("hel".utf8))
        #expect(second.0 == "bytes 2" && second.1 == Array("lo".utf8))
        #expect(third.0 == "end")
        #expect(pump.sentBytes == 5)
        #expect(try pump.rewind(toOffset: 0, fromStart: true))
        #expect(pump.sentBytes == 0)
        #expect(try !pump.rewind(toOffset: 2, fromStart: true))
        #expect(fill(&pump, size: 8).1 == Array("hello".utf8))
    }

    @Test func copiesAPipeChunkAcrossBuffersAndPausesWhenEmpty() async {
        // Given: a producer of two chunks that then fails
        let wakes = Lock(0)
        let pipe = RequestBodyPipe(capacity: 1 << 10) { wakes.withLock { $0 += 1 } }
        let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        pipe.start(chunks.makeAsyncIterator())
        var pump = UploadPump(source: .pipe(pipe), url: url, declaredLength: nil)
        #expect(pump.isOneShot)

        // When nothing came yet: pause, and the wake-up is armed
        #expect(fill(&pump, size: 4).0 == "pause")
        continuation.yield(Data("abcdef".utf8))
        while wakes.withLock({ $0 }) == 0 { await Task.yield() }

        // Then: the chunk goes out over two buffers
        let first = fill(&pump, size: 4)
        #expect(first.0 == "bytes 4" && first.1 == Array("abcd".utf8))
        continuation.yield(Data("gh".utf8))
        continuation.finish(throwing: ProducerFailed())
        var rest: [UInt8] = []
        var last = ""
        while true {
            let (step, bytes) = fill(&pump, size: 4)
            rest += bytes
            last = step
            if !step.hasPrefix("bytes") && step != "pause" { break }
            if step == "pause" { await Task.yield() }
        }
        #expect(rest == Array("efgh".utf8))
        #expect(last == "failed requestBodyFailed")
        #expect(pump.sentBytes == 8)
        #expect(throws: Never.self) { try #expect(!pump.rewind(toOffset: 0, fromStart: true)) }
    }

    @Test func aClosedPipeFailsTheRead() {
        let pipe = RequestBodyPipe(capacity: 16) {}
        pipe.close()
        var pump = UploadPump(source: .pipe(pipe), url: url, declaredLength: nil)
        #expect(fill(&pump, size: 4).0 == "failed requestBodyFailed")
    }

    @Test func throttlesUploadProgressButNeverRepeatsACount() throws {
        // Given
        let reader = try #require(try HTTPBody(Data(count: 10)).makeReader())
        var pump = UploadPump(source: .reader(reader), url: url, declaredLength: 10)
        let start = ContinuousClock.now
        _ = fill(&pump, size: 4)

        // When / Then
        #expect(pump.progress(force: false, now: start)?.completed == 4)
        _ = fill(&pump, size: 4)
        #expect(pump.progress(force: false, now: start + .milliseconds(10)) == nil)  // within the interval
        #expect(pump.progress(force: true, now: start + .milliseconds(10))?.completed == 8)
        #expect(pump.progress(force: true, now: start + .seconds(1)) == nil)  // the same count
        _ = fill(&pump, size: 4)
        let late = pump.progress(force: false, now: start + .seconds(1))
        #expect(late?.completed == 10 && late?.total == 10)
    }
}
