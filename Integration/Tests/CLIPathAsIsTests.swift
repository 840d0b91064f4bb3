import Foundation
import Testing

/// `--path-as-is`: the URL's path reaches the server with its dot segments, as the `curl` tool's
/// option of that name sends it; without it libcurl removes them (RFC 3986 §5.2.4). nginx's
/// `/request-headers` echoes the request line it received.
@Suite struct CLIPathAsIsTests {
    static var nginxReady: Bool { CLIProcess.binary != nil && CurlTestServers.hasHTTP }

    /// The request line nginx echoed.
    private func requestLine(_ result: CLIResult) -> String {
        String(decoding: result.standardOutput, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    }

    @Test(.enabled(if: nginxReady, "nginx or the courier binary missing"))
    func dotSegmentsGoOutOnlyWithPathAsIs() async throws {
        let url = try #require(CurlTestServers.http).adding("/a/../request-headers").absoluteString

        let kept = try await CLIProcess.run(["--no-proxy", "--path-as-is", "-b", url])
        let squashed = try await CLIProcess.run(["--no-proxy", "-b", url])

        #expect(kept.status == 0, "\(kept.standardError)")
        #expect(requestLine(kept) == "GET /a/../request-headers HTTP/1.1", "\(kept.outputText)")
        #expect(requestLine(squashed) == "GET /request-headers HTTP/1.1", "\(squashed.outputText)")
    }

    @Test(.enabled(if: CLIProcess.binary != nil, "no courier binary"))
    func thePrintedRequestShowsThePathThatGoesOut() async throws {
        let kept = try await CLIProcess.run(["--offline", "--path-as-is", "http://example.test/a/./../b"])
        let squashed = try await CLIProcess.run(["--offline", "http://example.test/a/./../b"])
        let verbose = try await CLIProcess.run(["--offline", "-v", "--path-as-is", "http://example.test/a/../b"])

        #expect(kept.outputText.hasPrefix("GET /a/./../b HTTP/1.1\n"), "\(kept.outputText)")
        #expect(squashed.outputText.hasPrefix("GET /b HTTP/1.1\n"), "\(squashed.outputText)")
        #expect(verbose.outputText.contains("--path-as-is 'http://example.test/a/../b'"), "\(verbose.outputText)")
    }
}
