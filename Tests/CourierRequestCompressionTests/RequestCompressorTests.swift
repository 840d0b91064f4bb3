import CCourierZlib
import CourierHTTP
import CourierRequestCompression
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTesting
import Foundation
import Testing

/// Inflates zlib (`deflate`) or gzip data, to check round trips.
func inflate(_ data: Data, gzip: Bool) throws -> Data {
    var stream = z_stream()
    guard courier_inflate_init2(&stream, gzip ? 31 : 15) == Z_OK else { throw CocoaError(.coderInvalidValue) }
    defer { inflateEnd(&stream) }
    var input = [UInt8](data)
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 64 << 10)
    var status: Int32 = Z_OK
    input.withUnsafeMutableBufferPointer { input in
        stream.next_in = input.baseAddress
        stream.avail_in = uInt(input.count)
        while status == Z_OK {
            buffer.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                status = CCourierZlib.inflate(&stream, Z_NO_FLUSH)
                output.append(out.baseAddress!, count: out.count - Int(stream.avail_out))
            }
        }
    }
    guard status == Z_STREAM_END else { throw CocoaError(.coderReadCorrupt) }
    return output
}

/// Reads a replayable body whole, as a transport would.
func readAll(_ body: HTTPBody) throws -> Data {
    guard let reader = try body.makeReader() else { return Data() }
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 1000)
    while case .bytes(let count) = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }) {
        output.append(contentsOf: buffer[..<count])
    }
    return output
}

@Suite struct RequestCompressorTests {
    let url = URL(string: "https://api.test/upload")!
    let context = AttemptContext(taskIdentifier: 0, retryCount: 0, redirectCount: 0)

    func text(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(ascii: "a") + UInt8($0 % 7) })
    }

    @Test(arguments: [RequestCompressor.Encoding.deflate, .gzip])
    func aBodyInMemoryIsCompressedWithItsLengthAndInflatesBack(encoding: RequestCompressor.Encoding) async throws {
        let original = text(100_000)
        let request = HTTPRequest(method: .post, url: url, body: HTTPBody(original))
        let sent = try await RequestCompressor(encoding: encoding).adapt(request, for: context)
        #expect(sent.headers["Content-Encoding"] == encoding.rawValue)
        let compressed = try #require(sent.body.bytes)
        #expect(sent.body.length == Int64(compressed.count))
        #expect(compressed.count < original.count / 10)
        #expect(try inflate(compressed, gzip: encoding == .gzip) == original)
        if encoding == .gzip { #expect(compressed.prefix(2) == Data([0x1F, 0x8B])) }
        if encoding == .deflate { #expect(compressed.first == 0x78) }  // a zlib header, not raw deflate
    }

    @Test func aFileIsCompressedAsItIsReadAndReplaysTheSameBytes() async throws {
        let seed = SeededRandom.seed()
        var random = SeededRandom(seed: seed)
        let original = Data((0..<300_000).map { _ in UInt8.random(in: 0...15, using: &random) })
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID()).bin").path
        try original.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = HTTPRequest(method: .put, url: url, body: try HTTPBody(fileAt: path))
        let sent = try await RequestCompressor(encoding: .gzip).adapt(request, for: context)
        #expect(sent.body.length == nil)  // chunked: the compressed size is known only at the end
        #expect(sent.body.isReplayable)
        let first = try readAll(sent.body)
        let second = try readAll(sent.body)
        #expect(first == second, "COURIER_TEST_SEED=\(seed)")
        #expect(try inflate(first, gzip: true) == original)
    }

    @Test func smallEmptyAndOneShotBodiesAreLeftAlone() async throws {
        let compressor = RequestCompressor(minimumBodySize: 1024)
        let small = HTTPRequest(method: .post, url: url, body: HTTPBody(text(1000)))
        #expect(try await compressor.adapt(small, for: context).headers["Content-Encoding"] == nil)
        let empty = HTTPRequest(method: .get, url: url)
        #expect(try await compressor.adapt(empty, for: context).headers["Content-Encoding"] == nil)
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data(count: 5000))
            continuation.finish()
        }
        let oneShot = HTTPRequest(method: .post, url: url, body: HTTPBody(length: nil, producer: chunks))
        let sent = try await compressor.adapt(oneShot, for: context)
        #expect(sent.headers["Content-Encoding"] == nil)
        #expect(sent.body.kind == .producer)
    }

    @Test func anExistingContentEncodingFailsIsSkippedOrReplacedAsAsked() async throws {
        var request = HTTPRequest(method: .post, url: url, body: HTTPBody(text(5000)))
        try request.headers.set(name: "Content-Encoding", value: "br")
        await #expect(throws: RequestCompressionError.contentEncodingAlreadySet("br")) {
            try await RequestCompressor().adapt(request, for: context)
        }
        let skipped = try await RequestCompressor(duplicateHeaderBehavior: .skip).adapt(request, for: context)
        #expect(skipped.body.bytes == text(5000))
        let replaced = try await RequestCompressor(duplicateHeaderBehavior: .replace).adapt(request, for: context)
        #expect(replaced.headers["Content-Encoding"] == "deflate")
    }

    @Test func theSessionSendsTheCompressedBodyOnEveryAttempt() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 200))
        transport.stub(url: url.absoluteString, reply: .init(status: 503), times: 1)
        let session = SessionManager(
            transport: transport,
            interceptor: Interceptor(adapters: [RequestCompressor(encoding: .gzip)], retriers: [RetryPolicy.immediate])
        )
        let original = text(50_000)
        _ = try await session.data(for: HTTPRequest(method: .put, url: url, body: HTTPBody(original)))
        let sent = transport.requests
        #expect(sent.count == 2)
        for recorded in sent {
            #expect(recorded.request.headers["Content-Encoding"] == "gzip")
            #expect(try inflate(recorded.body, gzip: true) == original)
        }
    }
}

@Suite struct RequestCompressorRedirectTests {
    @Test func aRedirectThatKeepsTheBodySendsItCompressedOnceNotAgain() async throws {
        let from = URL(string: "https://api.test/old")!
        let to = URL(string: "https://api.test/new")!
        let transport = MockTransport()
        transport.stub(url: from.absoluteString, reply: .redirect(status: 307, to: to))
        transport.stub(url: to.absoluteString, reply: .init(status: 200))
        let session = SessionManager(
            transport: transport,
            interceptor: Interceptor(adapters: [RequestCompressor(encoding: .gzip)])
        )
        let original = Data((0..<20_000).map { UInt8(ascii: "a") + UInt8($0 % 5) })
        _ = try await session.data(for: HTTPRequest(method: .put, url: from, body: HTTPBody(original)))
        let sent = transport.requests
        #expect(sent.map(\.url) == [from, to])
        for recorded in sent {
            #expect(recorded.request.headers["Content-Encoding"] == "gzip")
            #expect(try inflate(recorded.body, gzip: true) == original)
        }
    }
}

extension RetryPolicy {
    /// The default policy without waiting between attempts.
    static var immediate: RetryPolicy {
        var policy = RetryPolicy()
        policy.exponentialBackoffScale = 0
        return policy
    }
}
