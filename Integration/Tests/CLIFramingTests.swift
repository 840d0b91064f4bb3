import Foundation
import Testing

/// `-o` streaming to its file, `-x`, `--chunked`, `--all`, and `--continue` met by a `416`.
@Suite struct CLIFramingTests {
    static var httpbinReady: Bool { CLIProcess.binary != nil && CurlTestServers.hasHTTPBin }
    static var nginxReady: Bool {
        CLIProcess.binary != nil && CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil
    }

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-framing-\(UUID().uuidString)-\(name)")
            .path
    }

    private func echoed(_ output: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
    }

    @Test(.enabled(if: nginxReady, "nginx or the courier binary missing"))
    func anOutputFileIsWrittenAsTheBodyArrives() async throws {
        let base = try #require(CurlTestServers.http)
        let path = temporaryPath("big")
        defer { try? FileManager.default.removeItem(atPath: path) }

        let result = try await CLIProcess.run([
            "--no-proxy", "--report-rss", "-o", path, base.adding("/big-100m").absoluteString,
        ])

        #expect(result.status == 0, "\(result.standardError)")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        #expect(size?.intValue == 100 << 20)
        // 100 MiB held in memory would show here; streamed, the process stays near its baseline.
        #expect(try #require(result.peakRSSMiB) < 48)
    }

    @Test(.enabled(if: httpbinReady, "httpbin or the courier binary missing"))
    func compressDeflatesTheBodyWhenItGetsSmaller() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let text = String(repeating: "courier ", count: 200)

        let result = try await CLIProcess.run(["--no-proxy", "-x", base.adding("/post").absoluteString, "text=\(text)"])
        let small = try await CLIProcess.run(["--no-proxy", "-x", base.adding("/post").absoluteString, "a=1"])

        let headers = try echoed(result.standardOutput)["headers"] as? [String: String]
        #expect(headers?["Content-Encoding"] == "deflate")
        #expect(Int(headers?["Content-Length"] ?? "") ?? .max < text.utf8.count)
        let smallHeaders = try echoed(small.standardOutput)["headers"] as? [String: String]
        #expect(smallHeaders?["Content-Encoding"] == nil)
    }

    @Test(.enabled(if: httpbinReady, "httpbin or the courier binary missing"))
    func chunkedSendsTheBodyWithChunkedFraming() async throws {
        let base = try #require(CurlTestServers.httpbin)

        let result = try await CLIProcess.run(["--no-proxy", "--chunked", base.adding("/post").absoluteString, "a=1"])

        let body = try echoed(result.standardOutput)
        let headers = body["headers"] as? [String: String]
        #expect(headers?["Transfer-Encoding"] == "chunked")
        #expect(headers?["Content-Length"] == nil)
        #expect(body["json"] as? [String: String] == ["a": "1"])
    }

    @Test(.enabled(if: httpbinReady, "httpbin or the courier binary missing"))
    func allPrintsEveryHopOfARedirect() async throws {
        let base = try #require(CurlTestServers.httpbin)

        let result = try await CLIProcess.run([
            "--no-proxy", "-F", "--all", "-h", base.adding("/redirect/2").absoluteString,
        ])

        let heads = result.outputText.components(separatedBy: "\n").filter { $0.hasPrefix("HTTP/") }
        #expect(heads.count == 3, "\(result.outputText)")
        #expect(heads.last?.contains("200") == true)
    }

    @Test(.enabled(if: nginxReady, "nginx or the courier binary missing"))
    func continuingACompleteFileIsDone() async throws {
        // Given: the whole of /small with the record a session keeps beside a partial file
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let url = base.adding("/small").absoluteString
        let head = try await CLIProcess.run(["--no-proxy", "-h", "HEAD", url])
        let tag = try #require(
            head.outputText.components(separatedBy: "\n").first { $0.lowercased().hasPrefix("etag:") }?
                .dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)
        )
        let path = temporaryPath("small")
        let record = path + ".resumedata"
        defer { for file in [path, record] { try? FileManager.default.removeItem(atPath: file) } }
        try FileManager.default.copyItem(atPath: www + "/small", toPath: path)
        let recordObject: [String: Any] = ["url": url, "entityTag": tag, "partialFilePath": path, "offset": 100]
        try JSONSerialization.data(withJSONObject: recordObject).write(to: URL(fileURLWithPath: record))

        // When: the download is continued; the server answers 416
        let result = try await CLIProcess.run(["--no-proxy", "-d", "-c", "-o", path, url])

        // Then: it is complete, and the file is as it was
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("already complete"), "\(result.standardError)")
        #expect(try filesHaveSameContents(path, www + "/small"))
        #expect(!FileManager.default.fileExists(atPath: record))
    }
}
