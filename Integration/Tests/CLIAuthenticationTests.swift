import Foundation
import Testing

/// `courier`'s authentication against httpbin: `-a/--auth` with Basic, Digest (answered by the
/// transport) and Bearer, credentials from the URL and from `~/.netrc` (and `--ignore-netrc`), a
/// missing password without a terminal, and credentials that stay with their origin on a redirect.
@Suite struct CLIAuthenticationTests {
    static var httpbinReady: Bool { CLIProcess.binary != nil && CurlTestServers.hasHTTPBin }

    private func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any],
            "\(result.outputText)"
        )
    }

    @Test(.enabled(if: httpbinReady, "httpbin not set"))
    func basicDigestAndBearerAreAccepted() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let basic = try await CLIProcess.run([
            "--no-proxy", "--check-status", "-a", "user:passwd", base.adding("/basic-auth/user/passwd").absoluteString,
        ])
        #expect(basic.status == 0, "\(basic.standardError)")
        #expect(try json(basic)["authenticated"] as? Bool == true)

        let digest = try await CLIProcess.run([
            "--no-proxy", "--check-status", "-A", "digest", "-a", "user:passwd",
            base.adding("/digest-auth/auth/user/passwd").absoluteString,
        ])
        #expect(digest.status == 0, "\(digest.standardError)")
        #expect(try json(digest)["user"] as? String == "user")
        let wrong = try await CLIProcess.run([
            "--no-proxy", "--check-status", "--auth-type=digest", "--auth=user:nope",
            base.adding("/digest-auth/auth/user/passwd").absoluteString,
        ])
        #expect(wrong.status == 4, "a refused digest answer is a 401")

        let bearer = try await CLIProcess.run([
            "--no-proxy", "--check-status", "-A", "bearer", "-a", "t0ken", base.adding("/bearer").absoluteString,
        ])
        #expect(bearer.status == 0, "\(bearer.standardError)")
        #expect(try json(bearer)["token"] as? String == "t0ken")

        // Basic and Bearer are headers, so --offline shows them (base64 of user:passwd).
        let offline = try await CLIProcess.run(["--offline", "-a", "user:passwd", "example.test"])
        #expect(offline.outputText.contains("\nAuthorization: Basic dXNlcjpwYXNzd2Q=\n"), "\(offline.outputText)")
    }

    @Test(.enabled(if: httpbinReady, "httpbin not set"))
    func credentialsComeFromTheURLAndFromNetrc() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let port = try #require(base.port)
        let fromURL = try await CLIProcess.run([
            "--no-proxy", "--check-status", "http://user:passwd@127.0.0.1:\(port)/basic-auth/user/passwd",
        ])
        #expect(fromURL.status == 0, "\(fromURL.standardError)")

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("courier-netrc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let netrc = "machine example.org login other password x\n\nmachine 127.0.0.1\n  login user\n  password passwd\n"
        try Data(netrc.utf8).write(to: home.appendingPathComponent(".netrc"))
        let url = base.adding("/basic-auth/user/passwd").absoluteString
        let environment = ["HOME": home.path, "NETRC": ""]
        let fromNetrc = try await CLIProcess.run(
            ["--no-proxy", "--check-status", url],
            environment: environment.filter { !$0.value.isEmpty }
        )
        #expect(fromNetrc.status == 0, "\(fromNetrc.standardError)")
        let ignored = try await CLIProcess.run(
            ["--no-proxy", "--check-status", "--ignore-netrc", url],
            environment: ["HOME": home.path]
        )
        #expect(ignored.status == 4, "--ignore-netrc sends nothing, so httpbin answers 401")
        // --auth-type with no --auth takes the netrc entry too, as in httpie.
        let digestURL = base.adding("/digest-auth/auth/user/passwd").absoluteString
        let digest = try await CLIProcess.run(
            ["--no-proxy", "--check-status", "-A", "digest", digestURL],
            environment: ["HOME": home.path]
        )
        #expect(digest.status == 0, "\(digest.standardError)")
    }

    @Test(.enabled(if: CLIProcess.binary != nil, "no courier binary"))
    func aMissingPasswordWithoutATerminalIsAUsageError() async throws {
        let result = try await CLIProcess.run(["--offline", "-a", "ann", "example.test"])
        #expect(result.status == 1)
        #expect(
            result.standardError.hasPrefix(
                "courier: --auth ann has no password and stdin is not a terminal to ask for it: give -a ann:PASSWORD"
            ),
            "\(result.standardError)"
        )
        let badType = try await CLIProcess.run(["--offline", "-A", "ntlm", "-a", "a:b", "example.test"])
        #expect(badType.standardError.hasPrefix("courier: --auth-type takes basic, digest or bearer"))
    }

    /// On a terminal, `-a USER` asks for the password with echo off (`pty_prompt.py` types it only
    /// once the terminal no longer echoes), and the request carries what was typed.
    @Test(
        .enabled(if: httpbinReady, "httpbin not set"),
        .enabled(if: IntegrationEnvironment.python != nil, "COURIER_PYTHON not set")
    )
    func aMissingPasswordIsAskedForOnTheTerminalWithoutEcho() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let port = try #require(base.port)
        let binary = try #require(CLIProcess.binary)
        let password = "s3cr3t-typed"

        let run = try await runPythonTool(
            "pty_prompt.py",
            arguments: [
                "--answer", password, "--", binary, "--no-proxy", "--check-status", "-a", "user",
                base.adding("/basic-auth/user/\(password)").absoluteString,
            ],
            input: Data()
        )

        let report = try #require(
            try JSONSerialization.jsonObject(with: run.standardOutput) as? [String: Any],
            "\(run.outputText)"
        )
        let terminal = report["terminal"] as? String ?? ""
        #expect(report["echo_off"] as? Bool == true, "\(terminal)")
        #expect(report["status"] as? Int == 0, "\(terminal)")
        #expect(terminal.contains("http: password for user@127.0.0.1:\(port): "), "\(terminal)")
        #expect(!terminal.contains(password), "the typed password was echoed: \(terminal)")
        let body = Data((report["stdout"] as? String ?? "").utf8)
        let echoed = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect(echoed?["authenticated"] as? Bool == true)
        #expect(echoed?["user"] as? String == "user")
    }

    /// The session drops `Authorization` (and a Digest credential) when a followed redirect leaves
    /// the origin: 127.0.0.1 and localhost are different hosts, so different origins.
    @Test(.enabled(if: httpbinReady, "httpbin not set"))
    func credentialsNeverFollowARedirectToAnotherOrigin() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let port = try #require(base.port)
        for (target, keeps) in [("/headers", true), ("http://localhost:\(port)/headers", false)] {
            var components = URLComponents(url: base.adding("/redirect-to"), resolvingAgainstBaseURL: false)
            components?.queryItems = [URLQueryItem(name: "url", value: target)]
            let url = try #require(components?.url).absoluteString
            for auth in [["-a", "user:passwd"], ["-A", "bearer", "-a", "t0ken"]] {
                let result = try await CLIProcess.run(["--no-proxy", "-F"] + auth + [url])
                #expect(result.status == 0, "\(result.standardError)")
                let headers = try #require(try json(result)["headers"] as? [String: Any])
                #expect((headers["Authorization"] != nil) == keeps, "\(target) \(auth): \(headers)")
            }
        }
    }
}
