import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

@Suite struct CurlFileTransferTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-curl-\(UUID().uuidString)-\(name)").path
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil, "servers not set"))
    func downloadsToFile() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let transport = CurlTestServers.transport()
        let path = temporaryPath("100m")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = TransferOptions()
        options.destination = .file(path: path, resume: nil)
        let recorded = await record(
            transport.startTransfer(HTTPRequest(url: base.adding("/big-100m")), options: options)
        )
        #expect(recorded.error == nil)
        #expect(recorded.response?.status.code == 200)
        #expect(recorded.body.isEmpty)
        #expect(recorded.downloadProgress.last == TransferProgress(completed: 104_857_600, total: 104_857_600))
        let sizes = recorded.downloadProgress.map(\.completed)
        #expect(sizes == sizes.sorted())
        #expect(try filesHaveSameContents(path, www + "/big-100m"))
        await transport.shutdown()
    }

    /// Writes the first `count` bytes of `source` to a new file at `path`.
    private func writePrefix(of source: String, count: Int, to path: String) throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: source))
        defer { try? handle.close() }
        try (try handle.read(upToCount: count) ?? Data()).write(to: URL(fileURLWithPath: path))
    }

    private func validator(of url: URL, transport: CurlTransport) async throws -> String {
        // The identity representation's strong ETag: nginx weakens the ETag of gzipped responses.
        var headers = HTTPHeaders()
        try headers.add(name: "Accept-Encoding", value: "identity")
        let head = try await transport.startTransfer(HTTPRequest(method: .head, url: url, headers: headers))
            .collect(upTo: 0)
        return try #require(head.response.headers["ETag"])
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil, "servers not set"))
    func resumesWithMatchingValidator() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let transport = CurlTestServers.transport()
        let path = temporaryPath("text")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try writePrefix(of: www + "/text.txt", count: 70_000, to: path)
        let etag = try await validator(of: base.adding("/text.txt"), transport: transport)
        var options = TransferOptions()
        options.destination = .file(
            path: path,
            resume: ResumeValidator(offset: 70_000, entityTag: etag, lastModified: nil)
        )
        let recorded = await record(
            transport.startTransfer(HTTPRequest(url: base.adding("/text.txt")), options: options)
        )
        #expect(recorded.error == nil)
        #expect(recorded.response?.status.code == 206)
        #expect(recorded.metrics?.responseBodyBytes == Int64(130_000))
        #expect(recorded.downloadProgress.last == TransferProgress(completed: 200_000, total: 200_000))
        #expect(try filesHaveSameContents(path, www + "/text.txt"))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil, "servers not set"))
    func restartsCleanlyWhenTheValidatorChanged() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let transport = CurlTestServers.transport()
        let path = temporaryPath("text")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: "X"), count: 90_000).write(to: URL(fileURLWithPath: path))
        var options = TransferOptions()
        options.destination = .file(
            path: path,
            resume: ResumeValidator(offset: 90_000, entityTag: "\"stale-etag\"", lastModified: nil)
        )
        let recorded = await record(
            transport.startTransfer(HTTPRequest(url: base.adding("/text.txt")), options: options)
        )
        #expect(recorded.error == nil)
        #expect(recorded.response?.status.code == 200)
        #expect(try filesHaveSameContents(path, www + "/text.txt"))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil, "servers not set"))
    func reportsUnsatisfiableResume() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let path = temporaryPath("small")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: UInt8(ascii: "a"), count: 150).write(to: URL(fileURLWithPath: path))
        let etag = try await validator(of: base.adding("/small"), transport: transport)
        var options = TransferOptions()
        options.destination = .file(
            path: path,
            resume: ResumeValidator(offset: 150, entityTag: etag, lastModified: nil)
        )
        let recorded = await record(transport.startTransfer(HTTPRequest(url: base.adding("/small")), options: options))
        #expect(recorded.error?.category == .resumeFailed)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 150)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func reportsUnwritableDestination() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        var options = TransferOptions()
        options.destination = .file(path: "/nonexistent-dir/file", resume: nil)
        let recorded = await record(transport.startTransfer(HTTPRequest(url: base.adding("/small")), options: options))
        #expect(recorded.error?.category == .fileFailed)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil, "servers not set"))
    func uploadsFromFile() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let transport = CurlTestServers.transport()
        let body = try HTTPBody(fileAt: www + "/big-100m", offset: 1000, length: 20 << 20)
        let request = HTTPRequest(method: .put, url: base.adding("/upload"), body: body)
        let recorded = await record(transport.startTransfer(request))
        #expect(recorded.error == nil)
        #expect(
            String(decoding: recorded.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "20971520"
        )
        #expect(recorded.response?.headers["X-Upload-Framing"] == "length")
        #expect(recorded.uploadProgress.last == TransferProgress(completed: 20 << 20, total: 20 << 20))
        #expect(recorded.metrics?.requestBodyBytes == 20 << 20)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func uploadsFromAsyncProducerChunked() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let producer = PatternProducer(chunks: 300, chunkSize: 10_000)
        let request = HTTPRequest(
            method: .post,
            url: base.adding("/upload"),
            body: HTTPBody(length: nil, producer: producer)
        )
        let recorded = await record(transport.startTransfer(request))
        #expect(recorded.error == nil)
        #expect(
            String(decoding: recorded.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "3000000"
        )
        #expect(recorded.response?.headers["X-Upload-Framing"] == "chunked")
        #expect(recorded.metrics?.requestBodyBytes == 3_000_000)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasTLS, "TEST_HTTPS_URL or TEST_CA_FILE not set"))
    func uploadsFromAsyncProducerOverHTTP2() async throws {
        let base = try #require(CurlTestServers.https)
        let transport = CurlTestServers.transport()
        let producer = PatternProducer(chunks: 200, chunkSize: 20_000)
        let request = HTTPRequest(
            method: .post,
            url: base.adding("/upload"),
            body: HTTPBody(length: nil, producer: producer)
        )
        let recorded = await record(transport.startTransfer(request))
        #expect(recorded.error == nil)
        #expect(recorded.response?.version == .http2)
        #expect(
            String(decoding: recorded.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "4000000"
        )
        #expect(recorded.metrics?.requestBodyBytes == 4_000_000)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func uploadsProducerBodyIntact() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let producer = PatternProducer(chunks: 20, chunkSize: 7_001)
        let body = HTTPBody(length: 140_020, producer: producer)
        let request = HTTPRequest(method: .post, url: base.adding("/post"), body: body)
        let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)
        let echo = try #require(try JSONSerialization.jsonObject(with: result.body) as? [String: Any])
        let expected = (0..<20).map { _ in PatternProducer.bytes(count: 7_001) }.reduce(Data(), +)
        #expect(echo["data"] as? String == String(decoding: expected, as: UTF8.self))
        #expect((echo["headers"] as? [String: String])?["Content-Length"] == "140020")
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func waitsForPausingBodyReaderWithoutBlocking() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let request = HTTPRequest(method: .post, url: base.adding("/upload"), body: HTTPBody(source: PausingSource()))
        let start = ContinuousClock.now
        let recorded = await record(transport.startTransfer(request))
        let elapsed = start.duration(to: .now)
        #expect(recorded.error == nil)
        #expect(
            String(decoding: recorded.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "10000"
        )
        #expect(recorded.response?.headers["X-Upload-Framing"] == "length")
        #expect(elapsed >= .milliseconds(180))
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func failsWhenTheProducerThrows() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let producer = PatternProducer(chunks: 100, chunkSize: 10_000, failAfter: 5)
        let request = HTTPRequest(
            method: .post,
            url: base.adding("/upload"),
            body: HTTPBody(length: nil, producer: producer)
        )
        let recorded = await record(transport.startTransfer(request))
        #expect(recorded.error?.category == .requestBodyFailed)
        #expect(recorded.error?.underlying is PatternProducer.ProducerFailure)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func cancelsMidUploadPromptly() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let producer = PatternProducer(chunks: nil, chunkSize: 64 << 10)
        let request = HTTPRequest(
            method: .post,
            url: base.adding("/upload"),
            body: HTTPBody(length: nil, producer: producer)
        )
        let transfer = transport.startTransfer(request)
        var cancelledAt: ContinuousClock.Instant?
        var failure: TransportError?
        for await event in transfer.events {
            switch event {
            case .uploadProgress(let progress) where progress.completed >= 4 << 20 && cancelledAt == nil:
                cancelledAt = .now
                transfer.cancel()
            case .failed(let error): failure = error
            default: break
            }
        }
        #expect(failure?.category == .cancelled)
        #expect(try #require(cancelledAt).duration(to: .now) < .seconds(1))
        await transport.shutdown()
    }
}

/// A body of 10 × 1000 bytes whose reader pauses 20 ms before each piece.
struct PausingSource: HTTPBodySource {
    var length: Int64? { 10_000 }

    func makeReader() throws -> any HTTPBodyReader { PausingReader() }

    final class PausingReader: HTTPBodyReader {
        private var sent = 0
        private var resumeAt: ContinuousClock.Instant?

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> HTTPBodyReadResult {
            guard sent < 10_000 else { return .end }
            guard let resumeAt, resumeAt <= .now else {
                let until = resumeAt ?? .now + .milliseconds(20)
                self.resumeAt = until
                return .paused(until: until)
            }
            self.resumeAt = nil
            let count = min(1000, buffer.count)
            for index in 0..<count { buffer[index] = UInt8(ascii: "p") }
            sent += count
            return .bytes(count)
        }

        func rewind() throws {
            sent = 0
            resumeAt = nil
        }
    }
}
