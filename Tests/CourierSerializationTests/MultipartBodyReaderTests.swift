import CourierHTTP
import CourierSerialization
import Foundation
import Testing

@Suite struct MultipartBodyReaderTests {
    private func chunks(_ pieces: [Data]) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
    }

    @Test func readsExactlyContentLengthBytesForManyShapes() throws {
        let path = try MultipartTestFiles.make(Data((0..<5000).map { UInt8($0 % 251) }))
        let empty = try MultipartTestFiles.make(Data(), name: "empty.txt")
        defer {
            MultipartTestFiles.remove(path)
            MultipartTestFiles.remove(empty)
        }
        let shapes: [(inout MultipartFormData) throws -> Void] = [
            { try $0.append(Data(), name: "") },
            { try $0.appendFile(atPath: empty, name: "e") },
            { try $0.appendFile(atPath: path, name: "f") },
            {
                try $0.append(Data("x".utf8), name: "a")
                try $0.appendFile(atPath: path, name: "f")
                try $0.appendFile(atPath: empty, name: "e")
                try $0.append(
                    source: MultipartTestSource(actual: Data("abcdefg".utf8), declared: 7),
                    name: "s",
                    fileName: "s",
                    mimeType: "a/b"
                )
                try $0.append(
                    source: MultipartTestSource(actual: Data(), declared: 0),
                    name: "z",
                    fileName: "z",
                    mimeType: "a/b"
                )
            },
            {
                try $0.append(
                    source: MultipartTestSource(actual: Data(), declared: 0),
                    name: "z",
                    fileName: "z",
                    mimeType: "a/b"
                )
            },
            { try $0.appendParts(from: ["a": ["b": [1, 2, 3]], "c": "ü"]) },
            {
                try $0.append(Data(repeating: 3, count: 40_000), name: "big")
                try $0.append(Data("s".utf8), name: "small")
                try $0.append(Data(repeating: 4, count: 20_000), name: "big2", fileName: "b", mimeType: "a/b")
            },
        ]
        for (index, shape) in shapes.enumerated() {
            for threshold in [Int64.max, 0] {
                var form = MultipartFormData()
                form.memoryThreshold = threshold
                try shape(&form)
                for bufferSize in [1, 7, 4096, 1 << 20] {
                    let body = try readMultipartBody(form.makeBody(), bufferSize: bufferSize)
                    #expect(Int64(body.count) == form.contentLength, "shape \(index), buffer \(bufferSize)")
                    #expect(try MultipartTestParser.parse(body, boundary: form.boundary).count == form.count)
                }
            }
        }
    }

    @Test func rewindReplaysIdenticalBytes() throws {
        let path = try MultipartTestFiles.make(Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) }))
        defer { MultipartTestFiles.remove(path) }
        var form = MultipartFormData()
        try form.append(Data("head".utf8), name: "h")
        try form.appendFile(atPath: path, name: "f")
        try form.append(
            source: MultipartTestSource(actual: Data("tail".utf8), declared: 4),
            name: "t",
            fileName: "t",
            mimeType: "a/b"
        )
        let body = try form.makeBody()
        let whole = try readMultipartBody(body)
        let reader = try #require(try body.makeReader())
        var buffer = [UInt8](repeating: 0, count: 50_000)
        for _ in 0..<2 {
            _ = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
        }
        try reader.rewind()
        #expect(try readMultipartReader(reader, bufferSize: 333) == whole)
        try reader.rewind()
        #expect(try readMultipartReader(reader) == whole)
        #expect(try readMultipartBody(body) == whole)
    }

    @Test func throttlingPausesBetweenPacketsOfTheGivenSize() async throws {
        var form = try MultipartFormData(boundary: "T")
        try form.append(Data(repeating: 0x61, count: 30), name: "k")
        try form.throttle(packetSize: 16, delay: .milliseconds(20))
        #expect(form.throttle == (try MultipartThrottle(packetSize: 16, delay: .milliseconds(20))))
        let reader = try #require(try await form.makeBody().makeReader())
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var packets: [Int] = []
        var packetTimes: [ContinuousClock.Instant] = []
        var bytes = Data()
        reading: while true {
            let before = ContinuousClock.now
            switch try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }) {
            case .bytes(let count):
                packets.append(count)
                packetTimes.append(before)
                bytes.append(contentsOf: buffer[..<count])
            case .paused(let until):
                // A pause always lies ahead, and never further than one delay.
                #expect(until > before)
                #expect(until <= before + .milliseconds(20))
                try await Task.sleep(until: until, clock: .continuous)
            case .end:
                break reading
            }
        }
        let total = Int(form.contentLength)
        #expect(packets.reduce(0, +) == total)
        #expect(packets.dropLast().allSatisfy { $0 == 16 })
        #expect(packets.count == (total + 15) / 16)
        // Pacing holds however slowly the reader runs: packets are at least one delay apart.
        for (earlier, later) in zip(packetTimes, packetTimes.dropFirst()) {
            #expect(later - earlier >= .milliseconds(20))
        }
        #expect(try MultipartTestParser.parse(bytes, boundary: "T").first?.body == Array(repeating: 0x61, count: 30))
    }

    @Test func offersAFNetworking3GThrottleConstants() throws {
        #expect(MultipartThrottle.suggested3GPacketSize == 16_384)
        #expect(MultipartThrottle.suggested3GDelay == .milliseconds(200))
        var form = MultipartFormData()
        #expect(throws: SerializationError.self) { try form.throttle(packetSize: 0, delay: .zero) }
        #expect(throws: SerializationError.self) { try form.throttle(packetSize: 1, delay: .milliseconds(-1)) }
        #expect(form.throttle == nil)
    }

    @Test func failsWhenAFileShrankAfterItWasAppended() throws {
        let path = try MultipartTestFiles.make(Data(repeating: 1, count: 1000))
        defer { MultipartTestFiles.remove(path) }
        var form = MultipartFormData()
        try form.appendFile(atPath: path, name: "f")
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: path))
        #expect(throws: SerializationError.self) { try readMultipartBody(form.makeBody()) }
        do {
            _ = try readMultipartBody(form.makeBody())
        } catch let error as SerializationError {
            #expect(error.code == .multipartStreamFailed)
            #expect(error.failureReason?.contains("had 1000 bytes") == true)
        }
    }

    @Test func failsWhenAFileGrewAfterItWasAppended() throws {
        let path = try MultipartTestFiles.make(Data(repeating: 1, count: 10))
        defer { MultipartTestFiles.remove(path) }
        var form = MultipartFormData()
        try form.appendFile(atPath: path, name: "f")
        let body = try form.makeBody()
        try Data(repeating: 2, count: 11).write(to: URL(fileURLWithPath: path))
        #expect(throws: SerializationError.self) { try readMultipartBody(body) }
    }

    @Test func failsWhenAFileVanishedAfterItWasAppended() throws {
        let path = try MultipartTestFiles.make(Data(repeating: 1, count: 10))
        var form = MultipartFormData()
        try form.appendFile(atPath: path, name: "f")
        MultipartTestFiles.remove(path)
        do {
            _ = try readMultipartBody(form.makeBody())
            Issue.record("a vanished file was read")
        } catch let error as SerializationError {
            #expect(error.code == .fileNotReachable)
            #expect(error.urlErrorCode == -1000)
        }
    }

    @Test func failsWhenAStreamSourceIsShorterOrLongerThanDeclared() throws {
        for (actual, declared) in [(3, 5), (6, 5), (1, 0)] {
            var form = MultipartFormData()
            try form.append(
                source: MultipartTestSource(actual: Data(repeating: 9, count: actual), declared: Int64(declared)),
                name: "s",
                fileName: "s",
                mimeType: "a/b"
            )
            do {
                _ = try readMultipartBody(form.makeBody())
                Issue.record("\(actual) bytes passed for \(declared)")
            } catch let error as SerializationError {
                #expect(error.code == .multipartStreamFailed)
            }
        }
    }

    @Test func passesAStreamSourcePauseToTheTransport() async throws {
        var form = try MultipartFormData(boundary: "W")
        var source = MultipartTestSource(actual: Data("abc".utf8), declared: 3)
        source.pauseFirst = true
        source.chunk = 1
        try form.append(source: source, name: "s", fileName: "s", mimeType: "a/b")
        let reader = try #require(try await form.makeBody().makeReader())
        var buffer = [UInt8](repeating: 0, count: 4096)
        var kinds: [String] = []
        var data = Data()
        while kinds.last != "end" {
            let outcome = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            switch outcome {
            case .bytes(let count):
                data.append(contentsOf: buffer[..<count])
                kinds.append("bytes")
            case .paused(let until):
                kinds.append("paused")
                // The reader keeps answering with the source's pause until it has passed.
                #expect(try buffer.withUnsafeMutableBytes { try reader.read(into: $0) } == .paused(until: until))
                try await Task.sleep(until: until, clock: .continuous)
            case .end:
                kinds.append("end")
            }
        }
        // The delimiter and headers come first, then the source's pause, then its bytes and the close.
        #expect(kinds == ["bytes", "paused", "bytes", "end"])
        #expect(try MultipartTestParser.parse(data, boundary: "W").first?.body == Array("abc".utf8))
    }

    @Test func spillsAOneShotStreamSoTheBodyReplays() async throws {
        var form = try MultipartFormData(boundary: "O")
        try form.append(
            stream: chunks([Data("one ".utf8), Data(), Data("two".utf8)]),
            length: 7,
            name: "s",
            fileName: "s.txt",
            mimeType: "text/plain"
        )
        #expect(form.hasOneShotStreams)
        let source = try await form.makeBodySource()
        let path = try #require(source.spillFilePath)
        #expect(FileManager.default.fileExists(atPath: path))
        let body = HTTPBody(source: source)
        let first = try readMultipartBody(body)
        #expect(first == (try readMultipartBody(body)))
        let expected =
            "--O\r\nContent-Disposition: form-data; name=\"s\"; filename=\"s.txt\"\r\n"
            + "Content-Type: text/plain\r\n\r\none two\r\n--O--\r\n"
        #expect(String(decoding: first, as: UTF8.self) == expected)
        #expect(form.contentLength == Int64(expected.utf8.count))
    }

    @Test func refusesASecondBodyFromTheSameOneShotStream() async throws {
        var form = MultipartFormData()
        try form.append(stream: chunks([Data("ab".utf8)]), length: 2, name: "s", fileName: "s", mimeType: "a/b")
        _ = try await form.makeBody()
        await #expect(throws: SerializationError.self) { try await form.makeBody() }
    }

    @Test func synchronousMakeBodyRefusesOneShotStreams() throws {
        var form = MultipartFormData()
        try form.append(stream: chunks([Data("ab".utf8)]), length: 2, name: "s", fileName: "s", mimeType: "a/b")
        do {
            _ = try form.makeBody()
            Issue.record("a one-shot stream was accepted synchronously")
        } catch {
            #expect(error.code == .multipartStreamFailed)
            #expect(error.failureReason?.contains("async") == true)
        }
    }

    @Test func failsWhenAOneShotStreamIsShorterLongerOrBroken() async throws {
        struct Broken: Error {}
        let streams: [(AsyncThrowingStream<Data, any Error>, Int64)] = [
            (chunks([Data("abc".utf8)]), 4),
            (chunks([Data("abc".utf8), Data("de".utf8)]), 4),
            (AsyncThrowingStream { $0.finish(throwing: Broken()) }, 1),
        ]
        for (stream, length) in streams {
            var form = MultipartFormData()
            try form.append(stream: stream, length: length, name: "s", fileName: "s", mimeType: "a/b")
            do {
                _ = try await form.makeBody()
                Issue.record("a stream with the wrong length or an error was accepted")
            } catch {
                #expect(error.code == .multipartStreamFailed)
            }
        }
    }

    @Test func deletesTheSpillFileWhenTheLastCopyIsReleased() throws {
        var form = MultipartFormData()
        form.memoryThreshold = 4
        try form.append(Data("more than four bytes".utf8), name: "big")
        let path: String
        var reader: (any HTTPBodyReader)?
        do {
            let source = try form.makeBodySource()
            path = try #require(source.spillFilePath)
            let body = HTTPBody(source: source)
            do {
                let copy = body
                #expect(FileManager.default.fileExists(atPath: path))
                reader = try copy.makeReader()
            }
        }
        #expect(FileManager.default.fileExists(atPath: path), "the reader still holds the file")
        if let reader { #expect(try readMultipartReader(reader).count == Int(form.contentLength)) }
        reader = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func keepsSmallInMemoryPartsInMemory() throws {
        var form = MultipartFormData()
        try form.append(Data("small".utf8), name: "s")
        #expect(form.memoryThreshold == 10 * 1024 * 1024)
        #expect(try form.makeBodySource().spillFilePath == nil)
        form.memoryThreshold = 5
        #expect(try form.makeBodySource().spillFilePath == nil)
        form.memoryThreshold = 4
        #expect(try form.makeBodySource().spillFilePath != nil)
    }

    @Test func streamsASparse64MiBFileWithoutLosingBytes() throws {
        let path = try MultipartTestFiles.make(Data(), name: "sparse.bin")
        defer { MultipartTestFiles.remove(path) }
        let size = 64 << 20
        let marks: [(offset: Int, byte: UInt8)] = [(0, 0xA1), (1 << 20, 0xB2), (size / 2 + 3, 0xC3), (size - 1, 0xD4)]
        let holes = [1, (1 << 20) + 1, size / 2, size - 2]
        let descriptor = open(path, O_RDWR)
        #expect(descriptor >= 0)
        #expect(ftruncate(descriptor, off_t(size)) == 0)
        for mark in marks {
            var byte = mark.byte
            #expect(pwrite(descriptor, &byte, 1, off_t(mark.offset)) == 1)
        }
        close(descriptor)

        var form = try MultipartFormData(boundary: "Sparse")
        try form.appendFile(atPath: path, name: "big", fileName: "big.bin", mimeType: "application/octet-stream")
        let prefix =
            "--Sparse\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n"
        let start = prefix.utf8.count
        #expect(form.contentLength == Int64(start + size + "\r\n--Sparse--\r\n".utf8.count))

        let reader = try #require(try form.makeBody().makeReader())
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        var found: [Int: UInt8] = [:]
        var tail: [UInt8] = []
        while case .bytes(let count) = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }) {
            for offset in marks.map(\.offset) + holes where (total..<(total + count)).contains(start + offset) {
                found[offset] = buffer[start + offset - total]
            }
            tail = Array((tail + buffer[max(0, count - 14)..<count]).suffix(14))
            total += count
        }
        #expect(Int64(total) == form.contentLength)
        for mark in marks { #expect(found[mark.offset] == mark.byte) }
        for hole in holes { #expect(found[hole] == 0) }
        #expect(tail == Array("\r\n--Sparse--\r\n".utf8))
    }

    @Test func writesTheBodyToAFileAndReturnsAFileUpload() async throws {
        let path = try MultipartTestFiles.make(Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) }))
        let output = try MultipartTestFiles.make(Data(), name: "out.multipart")
        defer {
            MultipartTestFiles.remove(path)
            MultipartTestFiles.remove(output)
        }
        var form = MultipartFormData()
        try form.appendParts(from: ["a": 1])
        try form.appendFile(atPath: path, name: "f")
        try form.append(stream: chunks([Data("xyz".utf8)]), length: 3, name: "s", fileName: "s", mimeType: "a/b")
        try form.throttle(packetSize: 1, delay: .seconds(3600))

        let request = HTTPRequest(method: .post, url: try #require(URL(string: "https://example.com/up")))
        let upload = try await form.request(request, writingBodyTo: output)
        #expect(upload.body.kind == .file)
        #expect(upload.body.length == form.contentLength)
        #expect(upload.headers["Content-Type"] == form.contentType)
        #expect(upload.headers["Content-Length"] == String(form.contentLength))
        let written = try Data(contentsOf: URL(fileURLWithPath: output))
        let parts = try MultipartTestParser.parse(written, boundary: form.boundary)
        #expect(parts.map(\.body.count) == [1, 300_000, 3])
        #expect(parts[1].body == Array((0..<300_000).map { UInt8(truncatingIfNeeded: $0) }))
    }

    @Test func removesAPartialFileWhenWritingFails() async throws {
        let path = try MultipartTestFiles.make(Data(repeating: 5, count: 100))
        let output = try MultipartTestFiles.make(Data(), name: "out.multipart")
        defer {
            MultipartTestFiles.remove(path)
            MultipartTestFiles.remove(output)
        }
        var form = MultipartFormData()
        try form.appendFile(atPath: path, name: "f")
        try Data(repeating: 5, count: 50).write(to: URL(fileURLWithPath: path))
        await #expect(throws: SerializationError.self) { try await form.write(to: output) }
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
