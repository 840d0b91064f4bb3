import Foundation
import Testing

/// `courier -d` met by an error status: nothing is saved, whatever the session does with a refused
/// body, and a partial file being continued is kept for a later try.
@Suite struct CLIDownloadStatusTests {
    static var nginxReady: Bool { CLIProcess.binary != nil && CurlTestServers.hasHTTP }
    static var httpbinReady: Bool { CLIProcess.binary != nil && CurlTestServers.hasHTTPBin }

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)-\(name)").path
    }

    @Test(.enabled(if: nginxReady, "nginx or the courier binary missing"))
    func aNotFoundDownloadSavesNothing() async throws {
        let base = try #require(CurlTestServers.http)
        let path = temporaryPath("missing")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let url = base.adding("/courier-no-such-file-\(UUID().uuidString)").absoluteString

        let result = try await CLIProcess.run(["--no-proxy", "-d", "-o", path, url])

        #expect(result.status == 4, "\(result.standardError)")
        #expect(
            result.standardError.contains("courier: error: HTTP 404 Not Found; nothing saved"),
            "\(result.standardError)"
        )
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".resumedata"))
    }

    @Test(.enabled(if: httpbinReady, "httpbin or the courier binary missing"))
    func aServerErrorWithABodySavesNothing() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let path = temporaryPath("teapot")
        defer { try? FileManager.default.removeItem(atPath: path) }

        let result = try await CLIProcess.run([
            "--no-proxy", "--download", "--output", path, base.adding("/status/418").absoluteString,
        ])

        #expect(result.status == 4, "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(.enabled(if: nginxReady, "nginx or the courier binary missing"))
    func continuingIntoAnErrorStatusKeepsThePartialFile() async throws {
        // Given: 5 bytes of a file nginx no longer has, with the record a session kept for them
        let base = try #require(CurlTestServers.http)
        let path = temporaryPath("gone")
        let record = path + ".resumedata"
        defer { for file in [path, record] { try? FileManager.default.removeItem(atPath: file) } }
        let url = base.adding("/courier-gone-\(UUID().uuidString)").absoluteString
        try Data("01234".utf8).write(to: URL(fileURLWithPath: path))
        let recordJSON =
            "{\"url\":\"\(url)\",\"entityTag\":\"\\\"v1\\\"\",\"partialFilePath\":\"\(path)\",\"offset\":5}"
        try Data(recordJSON.utf8).write(to: URL(fileURLWithPath: record))

        // When: the download is continued and the server answers 404
        let result = try await CLIProcess.run(["--no-proxy", "-d", "-c", "-o", path, url])

        // Then: the 404 saved nothing, and the partial file and its record wait for a later try
        #expect(result.status == 4, "\(result.standardError)")
        #expect(result.standardError.contains("nothing saved"), "\(result.standardError)")
        #expect(result.standardError.contains("5 bytes of \(path) kept"), "\(result.standardError)")
        #expect(FileManager.default.contents(atPath: path) == Data("01234".utf8))
        #expect(FileManager.default.fileExists(atPath: record))
    }
}
