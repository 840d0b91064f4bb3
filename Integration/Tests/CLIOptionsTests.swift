import Foundation
import Testing

/// httpie's everyday options on `courier`: `--verify`, the `--cert-key` spellings, `--raw`,
/// `-q`, `--version`, and the shell completion scripts (run through bash itself).
@Suite struct CLIOptionsTests {
    static var ready: Bool { CLIProcess.binary != nil }
    static var httpsReady: Bool { ready && CurlTestServers.https != nil }

    @Test(.enabled(if: ready, "no courier binary"))
    func rawQuietAndVersion() async throws {
        let raw = try await CLIProcess.run(["--offline", "--print=B", "--raw", "[1, 2]", "example.test"])
        #expect(raw.outputText == "[1, 2]")
        let both = try await CLIProcess.run(["--offline", "--raw", "x", "example.test", "a=b"])
        #expect(both.standardError.hasPrefix("courier: --raw is the whole body"))
        let quiet = try await CLIProcess.run(["-q", "--offline", "example.test", "a=b"])
        #expect(quiet.status == 0)
        #expect(quiet.standardOutput.isEmpty)
        let version = try await CLIProcess.run(["--version"])
        #expect(version.outputText == "0.1.0\n")
        let key = try await CLIProcess.run(["--offline", "--cert-key", "k.pem", "example.test"])
        #expect(key.standardError.hasPrefix("courier: --cert-key and --cert-key-pass go with --cert"))
    }

    @Test(.enabled(if: httpsReady, "https server not set"))
    func verifyTakesNoYesOrACABundle() async throws {
        let base = try #require(CurlTestServers.https)
        let ca = try #require(CurlTestServers.value("TEST_CA_FILE"))
        let url = base.adding("/small").absoluteString
        let untrusted = try await CLIProcess.run(["--no-proxy", "--verify=yes", url])
        #expect(untrusted.status == 1)
        #expect(untrusted.standardError.hasPrefix("courier: the server's certificate is not trusted: "))
        let bundle = try await CLIProcess.run(["--no-proxy", "--verify", ca, url])
        #expect(bundle.status == 0, "\(bundle.standardError)")
        let unchecked = try await CLIProcess.run(["--no-proxy", "--verify=no", url])
        #expect(unchecked.status == 0, "\(unchecked.standardError)")
    }

    @Test(.enabled(if: ready && FileManager.default.isExecutableFile(atPath: "/bin/bash"), "no bash"))
    func bashCompletesOptionsValuesAndReservedWords() async throws {
        let script = try await CLIProcess.run(["--completion", "bash"])
        #expect(script.status == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).bash")
        try script.standardOutput.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let probe = """
            source '\(file.path)'
            COMP_WORDS=(courier --auth-t); COMP_CWORD=1; _courier; echo "${COMPREPLY[*]}"
            COMP_WORDS=(courier -A d); COMP_CWORD=2; _courier; echo "${COMPREPLY[*]}"
            COMP_WORDS=(courier ima); COMP_CWORD=1; _courier; echo "${COMPREPLY[*]}"
            COMP_WORDS=(courier --verify=); COMP_CWORD=1; complete -p courier
            """
        let result = try await runHelperProcess("/bin/bash", ["-c", probe])
        #expect(
            result.outputText == "--auth-type\ndigest\nimage\ncomplete -o default -F _courier courier\n",
            "\(result.outputText) \(result.standardError)"
        )
        let zsh = try await CLIProcess.run(["--completion=zsh"])
        #expect(zsh.outputText.hasPrefix("#compdef courier\n"))
        let unknown = try await CLIProcess.run(["--completion", "fish"])
        #expect(unknown.status == 1)
    }
}
