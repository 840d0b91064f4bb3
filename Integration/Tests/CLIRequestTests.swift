import CourierHTTP
import Foundation
import Testing

/// `courier [METHOD] URL [items]` as a user runs it: the grammar (through `--offline`, which
/// prints the request and sends nothing), the stdin rules, then requests against the loopback
/// httpbin, the fault server and nginx for request items, exit statuses, redirects, retries and
/// downloads resumed with `--continue`.
@Suite struct CLIRequestTests {
    static var ready: Bool { CLIProcess.binary != nil }
    static var httpbinReady: Bool { ready && CurlTestServers.hasHTTPBin }
    static var faultReady: Bool { ready && CurlTestServers.url("FAULT_HTTP_URL") != nil }
    static var nginxReady: Bool { ready && CurlTestServers.hasHTTP && CurlTestServers.wwwDirectory != nil }

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)-\(name)").path
    }

    /// The JSON httpbin's `/anything` echoed.
    private func echo(_ result: CLIResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: result.standardOutput)
        return try #require(object as? [String: Any], "\(result.outputText)")
    }

    // MARK: Grammar, offline

    @Test(.enabled(if: ready, "no courier binary"))
    func itemsBuildTheRequestHttpieWould() async throws {
        let result = try await CLIProcess.run([
            "--offline", "POST", "http://example.test/anything", "name=Ada", "age:=36", "tags:=[1,2]",
            "X-Trace:1", "q==a b", "a\\=b=c", "User-Agent:",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.outputText
        #expect(text.hasPrefix("POST /anything?q=a%20b HTTP/1.1\nHost: example.test\n"), "\(text)")
        #expect(text.contains("\nX-Trace: 1\n"))
        #expect(text.contains("\nContent-Type: application/json\n"))
        #expect(text.contains("\nAccept: application/json, */*;q=0.5\n"))
        #expect(!text.contains("User-Agent"), "Name: removes a default header")
        #expect(text.contains("\n\n{\"name\": \"Ada\", \"age\": 36, \"tags\": [1,2], \"a=b\": \"c\"}"), "\(text)")
    }

    @Test(.enabled(if: ready, "no courier binary"))
    func methodAndURLAreInferred() async throws {
        let cases: [([String], String)] = [
            (["example.test/x"], "GET /x HTTP/1.1\nHost: example.test\n"),
            (["example.test/x", "name=Ada"], "POST /x HTTP/1.1\n"),
            // httpie would send the method "localhost"; a lowercase word that is no method is the URL.
            (["localhost", "name=Ada"], "POST / HTTP/1.1\nHost: localhost\n"),
            (["get", "example.test", "x==1"], "GET /?x=1 HTTP/1.1\n"),
            (["PROPFIND", "example.test/dav"], "PROPFIND /dav HTTP/1.1\n"),
            ([":8080/x"], "GET /x HTTP/1.1\nHost: localhost:8080\n"),
            (["--form", "example.test", "name=Ada Lovelace"], "POST / HTTP/1.1\n"),
            // The tour is an executable of its own (CourierDemo), so `demo` is a host name again.
            (["demo"], "GET / HTTP/1.1\nHost: demo\n"),
        ]
        for (arguments, prefix) in cases {
            let result = try await CLIProcess.run(["--offline"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(result.outputText.hasPrefix(prefix), "\(arguments): \(result.outputText)")
        }
        let form = try await CLIProcess.run(["--offline", "--form", "example.test", "name=Ada Lovelace"])
        #expect(form.outputText.contains("Content-Type: application/x-www-form-urlencoded; charset=utf-8\n"))
        #expect(form.outputText.hasSuffix("\n\nname=Ada%20Lovelace"), "\(form.outputText)")
    }

    @Test(.enabled(if: ready, "no courier binary"))
    func usageErrorsExitOne() async throws {
        let cases: [([String], String)] = [
            ([], "usage: courier [OPTIONS]"),
            (["--verbose"], "courier: missing URL"),
            (["example.test", "--bogus"], "courier: unknown option --bogus"),
            (["ftp://example.test/"], "courier: not an http:// or https:// URL: ftp://example.test/"),
            (["example.test", "--print=x"], "courier: --print takes letters of HBhbm"),
            (["example.test", "age:=nope"], "courier: age:= wants JSON"),
            (["example.test", "plainword"], "courier: not a request item: \"plainword\""),
            (["-c", "example.test"], "courier: --continue needs --download and --output FILE"),
            (["--timeout", "soon", "example.test"], "courier: --timeout takes a positive number"),
            (["--verbose", "image"], "courier: image is ambiguous here: it is a courier command"),
            (["GET", "download"], "courier: download is ambiguous here"),
            (["download", "http://127.0.0.1:1/"], "courier: download needs --to FILE"),
        ]
        for (arguments, message) in cases {
            let result = try await CLIProcess.run(arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.standardError.hasPrefix(message), "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(arguments)")
        }
        let help = try await CLIProcess.run(["--help"])
        #expect(help.status == 0)
        for word in ["--continue", "--max-redirects", "idle timeout", "  download ", "  image ", "exit status"] {
            #expect(help.outputText.contains(word), "\(word)")
        }
        #expect(!help.outputText.contains("demo"), "\(help.outputText)")
    }

    // MARK: stdin

    @Test(.enabled(if: ready, "no courier binary"))
    func stdinIsTheBodyOnlyFromAPipeOrAFileWithData() async throws {
        let body = Data("{\"from\": \"stdin\"}".utf8)
        // /dev/null: not read, so the method stays GET.
        let null = try await CLIProcess.run(["--offline", "example.test"])
        #expect(null.outputText.hasPrefix("GET / HTTP/1.1\n"), "\(null.outputText)")
        // A pipe: the body, and the method becomes POST.
        let pipe = try await CLIProcess.run(["--offline", "example.test"], input: body, inputIsPipe: true)
        #expect(pipe.outputText.hasPrefix("POST / HTTP/1.1\n"), "\(pipe.outputText)")
        #expect(pipe.outputText.hasSuffix("\n\n{\"from\": \"stdin\"}"), "\(pipe.outputText)")
        // A regular file with data: the body; an empty one is not.
        let file = try await CLIProcess.run(["--offline", "PUT", "example.test"], input: body)
        #expect(file.outputText.hasPrefix("PUT / HTTP/1.1\n"))
        #expect(file.outputText.hasSuffix("{\"from\": \"stdin\"}"))
        let empty = try await CLIProcess.run(["--offline", "example.test"], input: Data())
        #expect(empty.outputText.hasPrefix("GET / HTTP/1.1\n"))
        // Not with data items, a method without a body, or --ignore-stdin.
        for arguments in [["example.test", "a=b"], ["GET", "example.test"], ["--ignore-stdin", "example.test"]] {
            let result = try await CLIProcess.run(["--offline"] + arguments, input: body, inputIsPipe: true)
            #expect(!result.outputText.contains("stdin"), "\(arguments): \(result.outputText)")
        }
    }

    /// stdin and stdout on a terminal, through `script`'s pseudo-terminal: stdin is not read and the
    /// output is coloured (colour never reaches the files and pipes of the other tests).
    @Test(.enabled(if: ready && FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "no script(1)"))
    func aTerminalIsNeverReadAndGetsColour() async throws {
        let binary = try #require(CLIProcess.binary)
        let command = "'\(binary)' --offline POST example.test/x"
        let result = try await runHelperProcess(
            "/usr/bin/script",
            ["-qec", command, "/dev/null"],
            timeout: .seconds(20)
        )
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.outputText
        #expect(text.contains("\u{1B}[32mPOST\u{1B}[0m /x HTTP/1.1"), "\(text.debugDescription)")
        #expect(!text.contains("Content-Type"), "no body was read from the terminal: \(text.debugDescription)")
    }

    // MARK: Against httpbin

    @Test(.enabled(if: httpbinReady, "httpbin not set"))
    func requestItemsReachHttpbin() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let url = base.adding("/anything").absoluteString
        let json = try echo(
            try await CLIProcess.run(["--no-proxy", "POST", url, "name=Ada", "age:=36", "X-Trace:7", "page==2"])
        )
        #expect(json["method"] as? String == "POST")
        #expect((json["json"] as? [String: Any])?["age"] as? Int == 36)
        #expect((json["json"] as? [String: Any])?["name"] as? String == "Ada")
        #expect((json["args"] as? [String: Any])?["page"] as? String == "2")
        #expect((json["headers"] as? [String: Any])?["X-Trace"] as? String == "7")

        let form = try echo(try await CLIProcess.run(["--no-proxy", "--form", url, "name=Ada Lovelace"]))
        #expect((form["form"] as? [String: Any])?["name"] as? String == "Ada Lovelace")

        let file = temporaryPath("part.txt")
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data("part contents\n".utf8).write(to: URL(fileURLWithPath: file))
        let multipart = try echo(try await CLIProcess.run(["--no-proxy", url, "doc@\(file)", "title=Notes"]))
        #expect((multipart["files"] as? [String: Any])?["doc"] as? String == "part contents\n")
        #expect((multipart["form"] as? [String: Any])?["title"] as? String == "Notes")

        let piped = try echo(
            try await CLIProcess.run(["--no-proxy", url], input: Data("[1, 2]".utf8), inputIsPipe: true)
        )
        #expect(piped["method"] as? String == "POST")
        #expect((piped["json"] as? [Any])?.count == 2)
    }

    @Test(.enabled(if: httpbinReady, "httpbin not set"))
    func verboseShowsRequestResponseMetricsAndCurl() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let url = base.adding("/anything").absoluteString
        let result = try await CLIProcess.run(["--no-proxy", "-v", "--pretty=format", url, "name=Ada"])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.outputText
        for part in [
            "POST /anything HTTP/1.1\n", "\n\n{\n    \"name\": \"Ada\"\n}\n\ncurl -X 'POST'", "HTTP/1.1 200 OK\n",
            "\n    \"json\": {\n        \"name\": \"Ada\"\n    },", "metrics:\n  protocol      HTTP/1.1",
            "  retries       0\n  redirects     0\n",
        ] {
            #expect(text.contains(part), "\(part.debugDescription) in \(text)")
        }
        #expect(!text.contains("\u{1B}["), "no colour off a terminal")
    }

    @Test(.enabled(if: httpbinReady, "httpbin not set"))
    func exitStatusesFollowHttpie() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let cases: [([String], Int32)] = [
            (["/status/404"], 0),
            (["/status/404", "--check-status"], 4),
            (["/status/503", "--check-status"], 5),
            (["/redirect/1", "--check-status"], 3),
            (["/redirect/2", "--follow", "--check-status"], 0),
            (["/redirect/5", "--follow", "--max-redirects=2"], 6),
        ]
        for (arguments, status) in cases {
            let url = base.adding(arguments[0]).absoluteString
            let result = try await CLIProcess.run(["--no-proxy", url] + arguments.dropFirst())
            #expect(result.status == status, "\(arguments): \(result.standardError)")
        }
        let followed = try await CLIProcess.run(["--no-proxy", "-F", base.adding("/redirect/2").absoluteString])
        #expect(try echo(followed)["url"] as? String == base.adding("/get").absoluteString)
        let timedOut = try await CLIProcess.run(["--no-proxy", "--timeout=1", base.adding("/delay/5").absoluteString])
        #expect(timedOut.status == 2, "\(timedOut.standardError)")
        #expect(timedOut.seconds < 4)
    }

    // MARK: Fault server and nginx

    @Test(.enabled(if: faultReady, "fault server not set"))
    func retriesGetPastAFlakyEndpoint() async throws {
        let fault = try #require(CurlTestServers.url("FAULT_HTTP_URL"))
        let id = UUID().uuidString
        let retried = try await CLIProcess.run([
            "--no-proxy", "--retries=2", "-p", "bm", fault.adding("/flaky?id=\(id)&failures=2").absoluteString,
        ])
        #expect(retried.status == 0, "\(retried.standardError)")
        #expect(retried.outputText.hasPrefix("attempt 3"), "\(retried.outputText)")
        #expect(retried.outputText.contains("  retries       2\n"))
        let once = try await CLIProcess.run([
            "--no-proxy", "--check-status", fault.adding("/flaky?id=\(id)-b&failures=1").absoluteString,
        ])
        #expect(once.status == 5)
    }

    @Test(.enabled(if: nginxReady, "nginx not set"))
    func downloadInterruptedThenContinuedIsByteIdentical() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        // /slow/ throttles to 1 MiB/s after 256 KiB, unless the request has a Range.
        let url = base.adding("/slow/big-100m").absoluteString
        let path = temporaryPath("big")
        let record = path + ".resumedata"
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: record)
        }
        let cut = try await CLIProcess.run(["--no-proxy", "-d", "-o", path, "--timeout=1", url])
        #expect(cut.status == 2, "\(cut.standardError)")
        #expect(cut.standardError.contains("run the same command with --continue"), "\(cut.standardError)")
        let kept = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
        #expect(kept.int64Value > 256 << 10 && kept.int64Value < 100 << 20)
        #expect(FileManager.default.fileExists(atPath: record))

        let resumed = try await CLIProcess.run(["--no-proxy", "-d", "-c", "-o", path, "--progress", url])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(resumed.standardError.contains("(resumed after \(kept.int64Value) bytes)"), "\(resumed.standardError)")
        #expect(resumed.standardError.contains("  download 100.0%  100.0 MiB of 100.0 MiB  "))
        #expect(!FileManager.default.fileExists(atPath: record))
        #expect(try filesHaveSameContents(path, www + "/big-100m"))
    }

    @Test(.enabled(if: nginxReady, "nginx not set"))
    func continueWithAStaleRecordStartsOver() async throws {
        let base = try #require(CurlTestServers.http)
        let www = try #require(CurlTestServers.wwwDirectory)
        let url = base.adding("/text.txt")
        let path = temporaryPath("text")
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".resumedata")
        }
        try Data(repeating: UInt8(ascii: "X"), count: 90_000).write(to: URL(fileURLWithPath: path))
        // The record of another version: If-Range fails, the server sends the whole file, no splice.
        let stale =
            "{\"url\":\"\(url.absoluteString)\",\"entityTag\":\"\\\"stale\\\"\",\"partialFilePath\":\"\(path)\",\"offset\":90000}"
        try Data(stale.utf8).write(to: URL(fileURLWithPath: path + ".resumedata"))
        let result = try await CLIProcess.run(["--no-proxy", "-d", "-c", "-o", path, url.absoluteString])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardError.contains("resumed after"), "\(result.standardError)")
        #expect(FileManager.default.contents(atPath: path) == FileManager.default.contents(atPath: www + "/text.txt"))
    }
}
