import CCourierOpenSSL
import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// A large, highly compressible response (`/compressed/large.json`: ~200 MiB of JSON gzip-compressed
/// at ~800:1, made by ci/servers) read by a consumer that falls behind. libcurl 7.88 decoded it
/// itself and, while the transfer was paused, kept the decoded bytes until its 64 MiB pause buffer
/// overflowed ("Out of memory"); the transport now decodes as its consumer reads.
@Suite(.serialized) struct CurlContentDecodingTests {
    static var expectedSize: Int? { CurlTestServers.value("TEST_COMPRESSED_JSON_SIZE").flatMap(Int.init) }
    static var expectedDigest: String? { CurlTestServers.value("TEST_COMPRESSED_JSON_SHA256") }
    static var ready: Bool { CurlTestServers.hasHTTP && expectedSize != nil && expectedDigest != nil }

    /// The transport's decoded pieces are at most libcurl's largest write.
    static let decodedChunkSize = 16 << 10

    /// Over HTTP/1.1 and over h2 (TLS), where libcurl holds a paused stream's data differently.
    @Test(
        .enabled(
            if: ready && CurlTestServers.hasTLS,
            "TEST_HTTP_URL, TEST_HTTPS_URL or TEST_COMPRESSED_JSON_* not set"
        ),
        arguments: [false, true]
    )
    func slowReaderGetsTheWholeDecodedBodyWithinTheHighWaterMark(overHTTP2: Bool) async throws {
        let base = try #require(overHTTP2 ? CurlTestServers.https : CurlTestServers.http)
        let transport = CurlTestServers.transport { $0.totalTimeout = .seconds(60) }
        var options = TransferOptions()
        options.highWaterMark = 1 << 20
        let transfer = transport.startTransfer(
            HTTPRequest(url: base.adding("/compressed/large.json")),
            options: options
        )
        let digest = try SHA256Digest()
        var received = 0
        var sinceSleep = 0
        var largestChunk = 0
        var largestBuffered = 0
        var paused = 0
        var response: HTTPResponse?
        var failure: TransportError?
        var metrics: TransferMetrics?
        let start = ContinuousClock.now
        for await event in transfer.events {
            largestBuffered = max(largestBuffered, transfer.events.bufferedBodyBytes)
            switch event {
            case .response(let head): response = head
            case .body(let chunk):
                digest.update(chunk)
                received += chunk.count
                largestChunk = max(largestChunk, chunk.count)
                sinceSleep += chunk.count
                // The consumer falls behind: 15 ms per MiB, three seconds over the whole body,
                // while the transport fills the 1 MiB buffer in well under that.
                if sinceSleep >= 1 << 20 {
                    sinceSleep = 0
                    try await Task.sleep(for: .milliseconds(15))
                    if transfer.events.bufferedBodyBytes >= options.highWaterMark - Self.decodedChunkSize {
                        paused += 1
                    }
                }
            case .failed(let error): failure = error
            case .completed(let done): metrics = done
            default: break
            }
        }
        await transport.shutdown()
        let elapsed = start.duration(to: .now)
        print(
            "slow reader of /compressed/large.json over \(overHTTP2 ? "h2" : "HTTP/1.1"): \(received) bytes in \(elapsed), largest chunk \(largestChunk), "
                + "largest buffer \(largestBuffered), full after \(paused) of the sleeps, "
                + "\(metrics.map { "\($0.responseBodyBytes) bytes on the wire" } ?? "no metrics")"
        )
        #expect(failure == nil, "\(failure.map(String.init(describing:)) ?? "")")
        #expect(response?.headers["Content-Encoding"] == "gzip")
        #expect(response?.version == (overHTTP2 ? .http2 : .http1_1))
        #expect(received == Self.expectedSize)
        #expect(digest.finish() == Self.expectedDigest)
        // Backpressure: the buffer never holds more than the high-water mark plus one chunk.
        #expect(largestChunk <= Self.decodedChunkSize)
        #expect(largestBuffered <= options.highWaterMark + Self.decodedChunkSize)
        // The consumer really was behind: the transport sat at the high-water mark, paused, at many
        // of its two hundred wake-ups (a few dozen on a loaded machine).
        #expect(paused >= 10)
        let done = try #require(metrics)
        #expect(done.decodedBodyBytes == Int64(received))
        #expect(done.responseBodyBytes < done.decodedBodyBytes / 500)
    }

    @Test(
        .enabled(if: ready, "TEST_HTTP_URL or TEST_COMPRESSED_JSON_* not set"),
        .enabled(if: CLIProcess.binary != nil, "no courier binary")
    )
    func cliWritesTheDecodedBodyToAFile() async throws {
        let base = try #require(CurlTestServers.http)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-large-\(UUID().uuidString).json"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await CLIProcess.run(
            ["-o", path, base.adding("/compressed/large.json").absoluteString, "--no-proxy"]
        )
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        #expect(size?.intValue == Self.expectedSize)
        let sum = try await runHelperProcess("/usr/bin/sha256sum", [path])
        #expect(String(sum.outputText.prefix { $0 != " " }) == Self.expectedDigest)
    }
}

/// SHA-256 through OpenSSL's EVP interface, fed piece by piece.
final class SHA256Digest {
    private let context: OpaquePointer

    struct Failure: Error {}

    init() throws {
        guard let context = EVP_MD_CTX_new() else { throw Failure() }
        self.context = context
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw Failure()
        }
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ data: Data) {
        data.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    /// The digest as lowercase hex.
    func finish() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &bytes, &length)
        return bytes.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}
