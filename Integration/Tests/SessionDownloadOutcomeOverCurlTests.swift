import CourierCurl
import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTransport
import Foundation
import Testing

/// How a download ends over libcurl when the server refuses it or the request cannot be resumed:
/// a refused body that arrived whole is at the destination beside the validation error (as
/// AFNetworking's download tasks and Alamofire's `DownloadRequest` leave it), and a `POST` cut
/// short gives no resume data where the same `GET` does.
@Suite struct SessionDownloadOutcomeOverCurlTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)-\(name)").path
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aNotFoundDownloadLeavesNginxsPageAtTheDestinationWithTheError() async throws {
        // Given: a file nginx does not have, downloaded to a chosen partial file with a record
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)
        let partial = temporaryPath("missing.part")
        let target = temporaryPath("missing.html")
        defer { try? FileManager.default.removeItem(atPath: target) }

        // When: it is downloaded
        let response = await session.download(
            for: HTTPRequest(url: base.adding("/courier-no-such-file-\(UUID().uuidString)")),
            options: DownloadOptions(partialFilePath: partial, persistsResumeRecord: true)
        ) { _, _ in DownloadDestination(path: target) }
        await session.shutdown()
        await transport.shutdown()

        // Then: nginx's 404 page is at the destination, with the validation error and the response
        #expect(response.filePath == target)
        let page = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(String(decoding: page, as: UTF8.self).contains("<title>404 Not Found</title>"))
        #expect(Int64(page.count) == response.response?.expectedContentLength)
        #expect(response.response?.status.code == 404)
        #expect(response.error?.kind == .serialization)
        #expect(response.error?.urlErrorCode == -1011)
        #expect(response.error?.serialization?.code == .unacceptableStatusCode)
        #expect(response.resumeData == nil)
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: DownloadOptions.resumeRecordPath(forPartialFile: partial)))
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func httpbinsTeapotIsAtTheDestinationWithTheError() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)
        let target = temporaryPath("teapot.txt")
        defer { try? FileManager.default.removeItem(atPath: target) }

        let response = await session.download(for: HTTPRequest(url: base.adding("/status/418"))) { _, _ in
            DownloadDestination(path: target)
        }
        await session.shutdown()
        await transport.shutdown()

        #expect(response.filePath == target)
        #expect(response.response?.status.code == 418)
        #expect(response.error?.urlErrorCode == -1011)
        let body = String(decoding: try Data(contentsOf: URL(fileURLWithPath: target)), as: UTF8.self)
        #expect(body.contains("-=[ teapot ]=-"), "\(body)")
    }

    /// Downloads from a one-shot loopback server whose `200` names version `"v1"` and promises 100
    /// bytes, then closes after 5: the transfer fails with 5 bytes in the partial file.
    private func cutShortDownload(method: HTTPMethod) async throws -> (DownloadResponse, partial: String) {
        let server = try CannedResponseServer(
            response: Data("HTTP/1.1 200 OK\r\nETag: \"v1\"\r\nContent-Length: 100\r\n\r\n01234".utf8)
        )
        defer { server.close() }
        let transport = CurlTestServers.transport()
        let session = SessionManager(transport: transport)
        let partial = temporaryPath("cut.part")
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/export"))
        let response = await session.download(
            for: HTTPRequest(method: method, url: url),
            options: DownloadOptions(partialFilePath: partial, persistsResumeRecord: true),
            to: nil
        )
        await session.shutdown()
        await transport.shutdown()
        return (response, partial)
    }

    @Test func aPostCutShortGivesNoResumeDataWhereTheSameGetDoes() async throws {
        // The GET: the partial file and resume data for its 5 bytes of "v1"
        let (get, getPartial) = try await cutShortDownload(method: .get)
        defer {
            try? FileManager.default.removeItem(atPath: getPartial)
            try? FileManager.default.removeItem(atPath: DownloadOptions.resumeRecordPath(forPartialFile: getPartial))
        }
        #expect(get.error?.kind == .transport(.connectionLost))
        #expect(get.resumeData?.offset == 5)
        #expect(get.resumeData?.entityTag == "\"v1\"")
        #expect(FileManager.default.fileExists(atPath: getPartial))

        // The POST: the same exchange, and nothing to resume from, nothing left behind
        let (post, postPartial) = try await cutShortDownload(method: .post)
        #expect(post.error?.kind == .transport(.connectionLost))
        #expect(post.resumeData == nil)
        #expect(!FileManager.default.fileExists(atPath: postPartial))
        #expect(!FileManager.default.fileExists(atPath: DownloadOptions.resumeRecordPath(forPartialFile: postPartial)))
    }
}
