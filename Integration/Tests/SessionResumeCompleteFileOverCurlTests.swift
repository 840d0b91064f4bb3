import CourierCurl
import CourierHTTP
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTransport
import Foundation
import Testing

/// Resuming a download whose partial file already holds the whole file, over libcurl and nginx:
/// nginx answers the `Range: bytes=N-` with `416` and `Content-Range: bytes */N`, and the download
/// completes with the file it had (RFC 9110 §14.4, §15.5.17); a partial file longer than the
/// server's stays `resumeFailed`.
@Suite struct SessionResumeCompleteFileOverCurlTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)-\(name)").path
    }

    /// The whole of nginx's `/small` as a partial file, with resume data naming `extra` bytes more.
    private func wholeFile(
        from base: URL,
        session: SessionManager,
        extra: Data = Data()
    ) async throws -> (partial: String, resumeData: ResumeData, original: Data) {
        let first = temporaryPath("small.part")
        let fresh = await session.download(for: HTTPRequest(url: base.adding("/small"))) { _, _ in
            DownloadDestination(path: first)
        }
        #expect(fresh.error == nil)
        let original = try Data(contentsOf: URL(fileURLWithPath: first))
        try (original + extra).write(to: URL(fileURLWithPath: first))
        let head = try #require(fresh.response)
        let resumeData = ResumeData(
            url: base.adding("/small"),
            entityTag: head.headers["ETag"],
            lastModified: head.headers["Last-Modified"],
            partialFilePath: first,
            offset: Int64(original.count + extra.count)
        )
        return (first, resumeData, original)
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func resumingACompleteFileSucceedsWithoutABody() async throws {
        // Given: the whole of /small on disk, as resume data for all of its bytes
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)
        let (partial, resumeData, original) = try await wholeFile(from: base, session: session)
        let target = temporaryPath("small.bin")
        defer { for path in [partial, target] { try? FileManager.default.removeItem(atPath: path) } }

        // When: the download goes on
        let resumed = await session.download(resumingWith: resumeData) { _, _ in DownloadDestination(path: target) }
        await session.shutdown()
        await transport.shutdown()

        // Then: nginx's 416 proved the file whole: success, the same bytes, none of them sent again
        #expect(resumed.error == nil, "\(String(describing: resumed.error))")
        #expect(resumed.resumeData == nil)
        #expect(resumed.filePath == target)
        #expect(resumed.response?.status.code == 416)
        #expect(resumed.response?.headers["Content-Range"] == "bytes */\(original.count)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == original)
        #expect(resumed.metrics.map(\.responseBodyBytes).reduce(0, +) == 0)
        #expect(!FileManager.default.fileExists(atPath: partial))
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func resumingPastTheEndOfTheServersFileStaysAResumeFailure() async throws {
        // Given: a partial file five bytes longer than the server's /small
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)
        let (partial, resumeData, original) = try await wholeFile(
            from: base,
            session: session,
            extra: Data("extra".utf8)
        )
        let target = temporaryPath("small.bin")
        defer { for path in [partial, target] { try? FileManager.default.removeItem(atPath: path) } }

        // When: the download goes on
        let resumed = await session.download(resumingWith: resumeData) { _, _ in DownloadDestination(path: target) }
        await session.shutdown()
        await transport.shutdown()

        // Then: the 416 names another length: the file changed, and the resume fails as before
        #expect(resumed.error?.kind == .transport(.resumeFailed))
        let refused = try #require(resumed.error?.transportError?.response)
        #expect(refused.headers["Content-Range"] == "bytes */\(original.count)")
        #expect(resumed.filePath == nil)
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
