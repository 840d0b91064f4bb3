import CourierCurl
import CourierHTTP
import CourierRequestCompression
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTransport
import Foundation
import Testing

/// Compressed request bodies through the session over libcurl, decoded and hashed by the upload
/// sink behind nginx's `/upload` (`X-Upload-Digest: sha256`: the digest of the decoded bytes).
@Suite struct RequestCompressionOverCurlTests {
    /// Sends `body` compressed and returns the sink's answer: `<bytes received> sha256=<hex> decoded=<n>`.
    func upload(_ body: HTTPBody, encoding: RequestCompressor.Encoding) async throws -> String {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let session = SessionManager(
            transport: transport,
            interceptor: Interceptor(adapters: [RequestCompressor(encoding: encoding)])
        )
        var request = HTTPRequest(method: .post, url: base.adding("/upload"), body: body)
        try request.headers.set(name: "X-Upload-Digest", value: "sha256")
        let response = try await session.data(for: request)
        await session.shutdown()
        await transport.shutdown()
        return String(decoding: response.data ?? Data(), as: UTF8.self)
    }

    func sha256(of path: String) async throws -> String {
        let output = try await runHelperProcess("/usr/bin/sha256sum", [path])
        return String(output.outputText.prefix { $0 != " " })
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func theServerDecodesExactlyTheOriginalBytesFromMemoryAndFromAFile() async throws {
        let seed = SeededRandom.seed()
        var random = SeededRandom(seed: seed)
        let original = Data((0..<600_000).map { _ in UInt8.random(in: 0...31, using: &random) })
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID()).bin").path
        try original.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let digest = try await sha256(of: path)

        for encoding in [RequestCompressor.Encoding.deflate, .gzip] {
            // In memory: sent with a Content-Length, smaller than the original.
            let fromMemory = try await upload(HTTPBody(original), encoding: encoding)
            let sent = try #require(Int(fromMemory.prefix { $0 != " " }))
            #expect(sent < original.count, "\(encoding): \(fromMemory)")
            #expect(fromMemory.hasSuffix("sha256=\(digest) decoded=\(original.count)\n"), "\(encoding): \(fromMemory)")
            // From a file, compressed as it is read and sent chunked.
            let fromFile = try await upload(try HTTPBody(fileAt: path), encoding: encoding)
            #expect(fromFile.hasSuffix("sha256=\(digest) decoded=\(original.count)\n"), "\(encoding): \(fromFile)")
        }
    }
}
