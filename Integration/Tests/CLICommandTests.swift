import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// `courier get URL` (now httpie's grammar with the method `get`) and the older `download` and
/// `upload` commands as a user runs them: exit statuses, clean one-line errors, headers, metrics
/// and the resume record.
@Suite struct CLICommandTests {
    static var ready: Bool { CLIProcess.binary != nil }
    static var serversReady: Bool { ready && CurlTestServers.hasTLS && CurlTestServers.wwwDirectory != nil }

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)-\(name)").path
    }

    private func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test(.enabled(if: ready, "no courier binary"))
    func badArgumentsPrintUsageAndExitOne() async throws {
        // 1, as httpie: 2 means a timeout.
        let cases: [([String], String)] = [
            (["get", "http://127.0.0.1:1/", "--bogus"], "courier: unknown option --bogus"),
            (["get", "ftp://example.test/"], "courier: not an http:// or https:// URL: ftp://example.test/"),
            (["get", "http://127.0.0.1:1/", "--header", "no colon"], "courier: --header wants 'Name: value'"),
            (["download", "http://127.0.0.1:1/"], "courier: download needs --to FILE"),
            (
                ["upload", "http://127.0.0.1:1/", "--file", "x", "--method", "PATCH"],
                "courier: --method must be PUT or POST"
            ),
            (["frobnicate", "plainword"], "courier: not a request item: \"plainword\""),
        ]
        for (arguments, message) in cases {
            let result = try await CLIProcess.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError.hasPrefix(message), "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("usage: courier"), "\(arguments)")
            #expect(result.standardOutput.isEmpty, "\(arguments)")
        }
    }

    @Test(.enabled(if: ready, "no courier binary"))
    func transportErrorsPrintTheirCategoryAndExitOne() async throws {
        // Port 1 on loopback: nothing listens, so the connection is refused at once.
        let result = try await CLIProcess.run(["get", "http://127.0.0.1:1/", "--no-proxy", "--report-rss"])
        #expect(result.status == 1)
        #expect(
            result.standardError.hasPrefix("courier: could not connect to 127.0.0.1:1 (connection refused"),
            "\(result.standardError)"
        )
        #expect(!result.standardError.contains("code 7"), "libcurl's code only with --verbose")
        #expect(result.peakRSSMiB != nil)
        #expect(result.standardOutput.isEmpty)
        // A download that never got a response leaves no empty file behind.
        let path = temporaryPath("refused")
        let download = try await CLIProcess.run(["download", "http://127.0.0.1:1/", "--to", path, "--no-proxy"])
        #expect(download.status == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(.enabled(if: ready, "no courier binary"))
    func unreadableUploadFileFailsCleanly() async throws {
        let missing = temporaryPath("missing")
        let result = try await CLIProcess.run(["upload", "http://127.0.0.1:1/", "--file", missing])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("courier: error: cannot upload \(missing): "), "\(result.standardError)")
    }

    @Test(.enabled(if: serversReady, "servers not set"))
    func getStreamsTheBodyAndReportsMetricsOverHTTP2() async throws {
        let base = try #require(CurlTestServers.https)
        let caFile = try #require(CurlTestServers.caFile)
        let result = try await CLIProcess.run(
            ["get", base.adding("/small").absoluteString, "--cacert", caFile, "--no-proxy", "--metrics"]
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == Data(repeating: UInt8(ascii: "a"), count: 100))
        for line in [
            "metrics:", "  protocol      HTTP/2", "  dns           ", "  connect       ", "  tls           ",
            "  first byte    ", "  total         ", "  received      ", "  connection    new, local port ",
        ] {
            #expect(result.standardError.contains("\n" + line) || result.standardError.hasPrefix(line), "\(line)")
        }
        #expect(result.standardError.contains("100 body bytes (100 decoded)"))
    }

    @Test(.enabled(if: serversReady, "servers not set"))
    func downloadWritesToAFileWithAProgressLine() async throws {
        let base = try #require(CurlTestServers.http)
        let path = temporaryPath("100m")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await CLIProcess.run(
            ["-d", base.adding("/big-100m").absoluteString, "--output", path, "--progress", "--no-proxy"]
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber
        #expect(size?.int64Value == 100 << 20)
        // The last redraw: carriage return, erase line, the totals, then the newline that ends it.
        var last = try #require(result.standardError.components(separatedBy: "\r\u{1B}[K").last)
        #expect(last.hasSuffix("\ncourier: saved 104857600 bytes to \(path)\n"), "\(last.debugDescription)")
        last = String(last.prefix { $0 != "\n" }) + "\n"
        #expect(last.hasPrefix("  download 100.0%  100.0 MiB of 100.0 MiB  "), "\(last.debugDescription)")
        #expect(last.hasSuffix("/s\n"), "\(last.debugDescription)")
    }

    @Test(.enabled(if: serversReady, "servers not set"))
    func getSendsHeadersAndHonoursHTTP11() async throws {
        let base = try #require(CurlTestServers.https)
        let caFile = try #require(CurlTestServers.caFile)
        let result = try await CLIProcess.run(
            [
                "get", base.adding("/request-headers").absoluteString, "--cacert", caFile, "--no-proxy", "--http1.1",
                "-H", "X-Courier-CLI: yes", "--header=X-Second:  two", "--metrics",
            ]
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText.contains("X-Courier-CLI: yes\r\n"), "\(result.outputText)")
        #expect(result.outputText.contains("X-Second: two\r\n"), "\(result.outputText)")
        #expect(result.standardError.contains("  protocol      HTTP/1.1"))
    }

    @Test(.enabled(if: serversReady, "servers not set"))
    func untrustedServerFailsWithTheTrustCategory() async throws {
        let base = try #require(CurlTestServers.https)
        let otherCA = try #require(CurlTestServers.value("TEST_OTHER_CA_FILE"))
        let result = try await CLIProcess.run([
            "get", base.adding("/small").absoluteString, "--cacert", otherCA, "--no-proxy",
        ])
        #expect(result.status == 1)
        #expect(
            result.standardError.hasPrefix("courier: the server's certificate is not trusted: "),
            "\(result.standardError)"
        )
    }

    @Test(.enabled(if: serversReady, "servers not set"))
    func httpErrorStatusExitsFourWithCheckStatusAndLeavesNoFile() async throws {
        let base = try #require(CurlTestServers.http)
        let path = temporaryPath("missing")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let get = try await CLIProcess.run(["get", base.adding("/no-such-file").absoluteString, "--no-proxy"])
        #expect(get.status == 0, "an error status is a response, as in httpie")
        let checked = try await CLIProcess.run([
            "get", base.adding("/no-such-file").absoluteString, "--no-proxy", "--check-status",
        ])
        #expect(checked.status == 4)
        #expect(checked.standardError == "courier: warning: HTTP 404 Not Found\n")
        let newDownload = try await CLIProcess.run(
            ["-d", base.adding("/no-such-file").absoluteString, "-o", path, "--no-proxy"]
        )
        #expect(newDownload.status == 4)
        #expect(!FileManager.default.fileExists(atPath: path))
        let download = try await CLIProcess.run(
            ["download", base.adding("/no-such-file").absoluteString, "--to", path, "--no-proxy"]
        )
        #expect(download.status == 1)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + ".courier-resume"))
    }

    /// The strong ETag of the identity representation (nginx weakens the ETag of gzipped responses).
    private func entityTag(of url: URL) async throws -> String {
        let transport = CurlTestServers.transport()
        defer { Task { await transport.shutdown() } }
        var headers = HTTPHeaders()
        try headers.add(name: "Accept-Encoding", value: "identity")
        let head = try await transport.startTransfer(HTTPRequest(method: .head, url: url, headers: headers))
            .collect(upTo: 0)
        return try #require(head.response.headers["ETag"])
    }

    private func writeRecord(for path: String, url: URL, entityTag: String, length: Int) throws {
        let text =
            "# courier download resume record: delete this file to start over\nurl=\(url.absoluteString)\n"
            + "etag=\(entityTag)\nlength=\(length)\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + ".courier-resume"))
    }

    @Test(.enabled(if: serversReady, "servers not set"))
    func downloadResumesFromTheRecordedValidator() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let url = base.adding("/text.txt")
        let full = try #require(contents(www + "/text.txt"))
        let path = temporaryPath("text")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".courier-resume")
        }
        try full.prefix(70_000).write(to: URL(fileURLWithPath: path))
        try writeRecord(for: path, url: url, entityTag: try await entityTag(of: url), length: full.count)
        let result = try await CLIProcess.run(["download", url.absoluteString, "--to", path, "--resume", "--no-proxy"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "courier: saved 130000 bytes to \(path) (resumed after 70000 bytes)\n")
        #expect(contents(path) == full)
        #expect(!FileManager.default.fileExists(atPath: path + ".courier-resume"))
    }

    @Test(.enabled(if: serversReady, "servers not set"))
    func downloadRestartsWhenTheValidatorNoLongerMatches() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let url = base.adding("/text.txt")
        let full = try #require(contents(www + "/text.txt"))
        let path = temporaryPath("text")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".courier-resume")
        }
        try Data(repeating: UInt8(ascii: "X"), count: 90_000).write(to: URL(fileURLWithPath: path))
        try writeRecord(for: path, url: url, entityTag: "\"stale-etag\"", length: full.count)
        let result = try await CLIProcess.run(["download", url.absoluteString, "--to", path, "--resume", "--no-proxy"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("the server sent the whole file"), "\(result.standardError)")
        #expect(contents(path) == full)
        #expect(!FileManager.default.fileExists(atPath: path + ".courier-resume"))
    }

    @Test(.enabled(if: serversReady, "servers not set"))
    func downloadIgnoresARecordOfAnotherURL() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let path = temporaryPath("small")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".courier-resume")
        }
        try Data("partial".utf8).write(to: URL(fileURLWithPath: path))
        try writeRecord(for: path, url: base.adding("/text.txt"), entityTag: "\"x\"", length: 200_000)
        let url = base.adding("/small")
        let result = try await CLIProcess.run(["download", url.absoluteString, "--to", path, "--resume", "--no-proxy"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardError.hasPrefix(
                "courier: \(path) was downloaded from \(base.adding("/text.txt").absoluteString); starting over\n"
            )
        )
        #expect(contents(path) == contents(www + "/small"))
    }
}
