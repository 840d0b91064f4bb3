import CourierHTTP
import Foundation
import Testing

@Suite struct HTTPBodyTests {
    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-body-\(UUID().uuidString)")
            .path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func readAll(_ reader: any HTTPBodyReader, chunk: Int = 7) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while case .bytes(let count) = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }) {
            result += buffer[..<count]
        }
        return result
    }

    @Test func emptyAndBytesBodiesAreReplayable() throws {
        let body = HTTPBody(Data("hello world".utf8))
        #expect(body.kind == .bytes)
        #expect(body.length == 11)
        #expect(body.isReplayable)
        let reader = try #require(try body.makeReader())
        #expect(try readAll(reader) == Array("hello world".utf8))
        try reader.rewind()
        #expect(try readAll(reader, chunk: 3) == Array("hello world".utf8))
        #expect(HTTPBody(Data()).kind == .empty)
        #expect(HTTPBody.empty.length == 0)
    }

    @Test func fileBodyReadsARangeLazilyAndRewinds() throws {
        let path = try temporaryFile(Array(0..<200).map { UInt8($0) })
        defer { unlink(path) }

        let body = try HTTPBody(fileAt: path, offset: 10, length: 50)
        #expect(body.kind == .file)
        #expect(body.length == 50)
        let reader = try #require(try body.makeReader())
        #expect(try readAll(reader) == Array(10..<60).map { UInt8($0) })
        try reader.rewind()
        #expect(try readAll(reader, chunk: 64) == Array(10..<60).map { UInt8($0) })
        #expect(try HTTPBody(fileAt: path).length == 200)
    }

    @Test func missingOrIrregularFilesAreTypedErrors() throws {
        #expect {
            try HTTPBody(fileAt: "/nonexistent/courier/file")
        } throws: { ($0 as? HTTPValueError)?.code == .unreadableFile }
        #expect {
            try HTTPBody(fileAt: "/tmp")
        } throws: { ($0 as? HTTPValueError)?.reason == "not a regular file" }
    }

    @Test func rangesOutsideTheFileAreTypedErrors() throws {
        let path = try temporaryFile([1, 2, 3])
        defer { unlink(path) }

        #expect { try HTTPBody(fileAt: path, offset: 4) } throws: { ($0 as? HTTPValueError)?.code == .invalidRange }
        #expect { try HTTPBody(fileAt: path, offset: 1, length: 3) } throws: {
            ($0 as? HTTPValueError)?.code == .invalidRange
        }
        #expect { try HTTPBody(fileAt: path, offset: -1) } throws: { ($0 as? HTTPValueError)?.code == .invalidRange }
        #expect(try HTTPBody(fileAt: path, offset: 3).length == 0)
    }

    @Test func aFileThatShrinksMakesTheReaderThrowInsteadOfSendingAShortBody() throws {
        let path = try temporaryFile(Array(repeating: 7, count: 100))
        defer { unlink(path) }
        let body = try HTTPBody(fileAt: path)
        truncate(path, 40)

        let reader = try #require(try body.makeReader())
        #expect {
            _ = try readAll(reader, chunk: 64)
        } throws: { error in
            (error as? HTTPValueError)?.reason.contains("the file ended after 40 of 100 bytes") == true
        }
    }

    @Test func producerBodiesAreNotReplayableAndCollectInOrder() async throws {
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data("ab".utf8))
            continuation.yield(Data("cd".utf8))
            continuation.finish()
        }
        let body = HTTPBody(length: 4, producer: stream)

        #expect(body.kind == .producer)
        #expect(!body.isReplayable)
        #expect(try body.makeReader() == nil)
        #expect(try await body.collect(upTo: 10) == Data("abcd".utf8))
    }

    @Test func aOneShotBodyReadTwiceFailsWithATypedErrorFromEveryCopy() async throws {
        // Given: a producer body and a copy of it, as a retry or an adapter would hold
        let stream = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data("once".utf8))
            continuation.finish()
        }
        let body = HTTPBody(length: nil, producer: stream)
        let copy = body
        #expect(body.producer?.isConsumed == false)

        // When: the first read takes the chunks
        #expect(try await body.collect(upTo: 10) == Data("once".utf8))

        // Then: every later read, from the body or its copy, is refused rather than empty
        #expect(copy.producer?.isConsumed == true)
        await #expect {
            try await copy.collect(upTo: 10)
        } throws: { ($0 as? HTTPValueError)?.code == .bodyAlreadyConsumed }
        #expect(throws: HTTPValueError.self) { _ = try body.producer?.claim() }
    }

    @Test func collectEnforcesItsLimit() async throws {
        let body = HTTPBody(Data(repeating: 1, count: 100))
        await #expect(throws: HTTPValueError.self) { try await body.collect(upTo: 99) }
        #expect(try await body.collect(upTo: 100).count == 100)
    }

    @Test func collectHonoursPacingWithoutBlocking() async throws {
        let body = HTTPBody(source: PacedSource())
        let started = ContinuousClock.now
        #expect(try await body.collect(upTo: 10) == Data([1, 2]))
        #expect(ContinuousClock.now - started >= .milliseconds(20))
    }

    @Test func requestDescribesItself() throws {
        let request = HTTPRequest(method: .post, url: try #require(URL(string: "https://example.com/items")))
        #expect(request.description == "POST https://example.com/items")
        #expect(request.timeout == nil)
        #expect(request.body.kind == .empty)
    }
}

/// Yields one byte, pauses 20 ms, yields another.
private struct PacedSource: HTTPBodySource {
    var length: Int64? { 2 }
    func makeReader() throws -> any HTTPBodyReader { Reader() }

    final class Reader: HTTPBodyReader {
        private var step = 0
        private var resumeAt = ContinuousClock.now
        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> HTTPBodyReadResult {
            defer { step += 1 }
            switch step {
            case 0:
                buffer[0] = 1
                resumeAt = .now + .milliseconds(20)
                return .bytes(1)
            case 1: return .paused(until: resumeAt)
            case 2:
                buffer[0] = 2
                return .bytes(1)
            default: return .end
            }
        }
        func rewind() throws { step = 0 }
    }
}
