import Foundation
import Testing

/// `--session`: headers, cookies and credentials kept between invocations in httpie 3.2's session
/// file format, so the same file works with httpie (`$COURIER_VENV/bin/http`, pinned in
/// ci/requirements.txt) and courier, each way round.
@Suite struct CLISessionTests {
    static var ready: Bool { CLIProcess.binary != nil && CurlTestServers.hasHTTPBin }

    /// httpie installed next to the venv's Python.
    static var httpie: String? {
        guard let python = IntegrationEnvironment.python else { return nil }
        let http = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("http").path
        return FileManager.default.isExecutableFile(atPath: http) ? http : nil
    }

    private func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-session-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func echoedHeaders(_ output: Data) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: output) as? [String: Any]
        return object?["headers"] as? [String: String] ?? [:]
    }

    @Test(.enabled(if: ready, "httpbin or the courier binary missing"))
    func aNamedSessionKeepsHeadersCookiesAndAuthUnderXDGConfig() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let config = try folder()
        defer { try? FileManager.default.removeItem(atPath: config) }
        let environment = ["XDG_CONFIG_HOME": config]

        let first = try await CLIProcess.run(
            [
                "--no-proxy", "--session=api", "-a", "ann:secret",
                base.adding("/cookies/set?flavour=oat").absoluteString,
                "X-Team:blue",
            ],
            environment: environment
        )
        #expect(first.status == 0, "\(first.standardError)")
        let second = try await CLIProcess.run(
            ["--no-proxy", "--session=api", base.adding("/headers").absoluteString],
            environment: environment
        )

        let headers = try echoedHeaders(second.standardOutput)
        #expect(headers["X-Team"] == "blue")
        #expect(headers["Cookie"] == "flavour=oat")
        #expect(headers["Authorization"] == "Basic " + Data("ann:secret".utf8).base64EncodedString())
        let host = "\(base.host ?? "")_\(base.port.map(String.init) ?? "")"
        let file = "\(config)/courier/sessions/\(host)/api.json"
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test(.enabled(if: ready, "httpbin or the courier binary missing"))
    func aReadOnlySessionIsUsedButNotChanged() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/read-only.json"
        _ = try await CLIProcess.run(["--no-proxy", "--session", path, base.adding("/get").absoluteString, "X-A:1"])
        let before = try Data(contentsOf: URL(fileURLWithPath: path))

        let result = try await CLIProcess.run(
            ["--no-proxy", "--session-read-only", path, base.adding("/headers").absoluteString, "X-B:2"]
        )

        let headers = try echoedHeaders(result.standardOutput)
        #expect(headers["X-A"] == "1" && headers["X-B"] == "2")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test(
        .enabled(if: ready, "httpbin or the courier binary missing"),
        .enabled(if: httpie != nil, "no httpie in the venv (ci/requirements.txt)")
    )
    func aSessionFileRoundTripsBetweenHttpieAndCourier() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let http = try #require(Self.httpie)
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/shared.json"
        let environment = CLIProcess.childEnvironment.merging(["HTTPIE_CONFIG_DIR": directory]) { $1 }

        // httpie writes the session; courier sends what it kept.
        let written = try await runHelperProcess(
            http,
            [
                "--ignore-stdin", "--session", path, "-A", "bearer", "-a", "tok-1",
                base.adding("/cookies/set?from=httpie").absoluteString, "X-Written-By:httpie",
            ],
            environment: environment
        )
        #expect(written.status == 0, "\(written.standardError)")
        let byCourier = try await CLIProcess.run(
            [
                "--no-proxy", "--session", path, base.adding("/headers").absoluteString, "X-Also:courier",
                "Cookie:second=courier",
            ]
        )
        let sent = try echoedHeaders(byCourier.standardOutput)
        #expect(sent["X-Written-By"] == "httpie")
        #expect(sent["Authorization"] == "Bearer tok-1")
        #expect(sent["Cookie"]?.contains("from=httpie") == true)

        // courier updated the file; httpie sends what courier added.
        let byHttpie = try await runHelperProcess(
            http,
            ["--ignore-stdin", "--session", path, base.adding("/headers").absoluteString],
            environment: environment
        )
        #expect(byHttpie.status == 0, "\(byHttpie.standardError)")
        let echoed = try echoedHeaders(byHttpie.standardOutput)
        #expect(echoed["X-Also"] == "courier")
        #expect(echoed["X-Written-By"] == "httpie")
        #expect(echoed["Authorization"] == "Bearer tok-1")
        #expect(echoed["Cookie"]?.contains("second=courier") == true)
        #expect(echoed["Cookie"]?.contains("from=httpie") == true)
    }

    /// `--verbose` prints the `Cookie` field the cookie jar adds from the session, as httpie's
    /// request head shows its session's cookies, and the curl command line carries it too.
    @Test(.enabled(if: ready, "httpbin or the courier binary missing"))
    func verboseShowsTheCookieTheSessionSends() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/cookies.json"
        let session = """
            {"__meta__": {"about": "HTTPie session file", "httpie": "3.2.4"},
             "auth": {"raw_auth": null, "type": null},
             "cookies": [{"domain": "", "expires": null, "name": "sid", "path": "/", "secure": false, "value": "42"}],
             "headers": []}
            """
        try Data(session.utf8).write(to: URL(fileURLWithPath: path))

        let result = try await CLIProcess.run([
            "--no-proxy", "-v", "--pretty=none", "--session-read-only", path, base.adding("/cookies").absoluteString,
        ])

        #expect(result.status == 0, "\(result.standardError)")
        let text = result.outputText
        let requestHead = text.components(separatedBy: "\n\n").first ?? ""
        #expect(requestHead.hasPrefix("GET /cookies HTTP/1.1\nHost: "), "\(text)")
        #expect(requestHead.contains("\nCookie: sid=42\n"), "\(text)")
        #expect(text.contains("-b 'sid=***'"), "\(text)")
        #expect(text.contains("\"sid\": \"42\""), "the server received the cookie: \(text)")
        let offline = try await CLIProcess.run(["--offline", "--session-read-only", path, base.absoluteString])
        #expect(offline.outputText.contains("\nCookie: sid=42\n"), "\(offline.outputText)")
    }
}
