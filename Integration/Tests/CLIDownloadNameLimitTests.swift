import Foundation
import Testing

/// `courier -d` without `--output` names the file from `Content-Disposition` only when the server
/// offers a bare name: a name with a path, dots or control characters never leaves the folder the
/// command runs in, and the URL's last segment is used instead (`ContentDisposition.isSafe`).
@Suite struct CLIDownloadNameLimitTests {
    static var httpbinReady: Bool { CLIProcess.binary != nil && CurlTestServers.hasHTTPBin }

    /// Runs `courier --no-proxy -d URL` in a new folder inside a new parent, for a response whose
    /// `Content-Disposition` is `disposition`; returns the names that appeared in each.
    private func download(disposition: String) async throws -> (folder: [String], parent: [String]) {
        let binary = try #require(CLIProcess.binary)
        let base = try #require(CurlTestServers.httpbin)
        let files = FileManager.default
        let parent = files.temporaryDirectory.appendingPathComponent("courier-names-\(UUID().uuidString)")
        let folder = parent.appendingPathComponent("cwd")
        try files.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: parent) }
        var components = try #require(
            URLComponents(url: base.adding("/response-headers"), resolvingAgainstBaseURL: false)
        )
        components.queryItems = [URLQueryItem(name: "Content-Disposition", value: disposition)]
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: ";", with: "%3B")
        let url = try #require(components.url)
        // The CLI writes into its working directory, which CLIProcess.run does not set: a shell does.
        let result = try await runHelperProcess(
            "/bin/sh",
            [
                "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", folder.path, binary, "--no-proxy", "-d",
                url.absoluteString,
            ]
        )
        #expect(result.status == 0, "\(result.standardError)")
        return (
            try files.contentsOfDirectory(atPath: folder.path).sorted(),
            try files.contentsOfDirectory(atPath: parent.path).sorted()
        )
    }

    @Test(.enabled(if: httpbinReady, "httpbin or the courier binary missing"))
    func aBareNameIsUsed() async throws {
        let names = try await download(disposition: "attachment; filename=\"report.txt\"")
        #expect(names.folder == ["report.txt"])
        #expect(names.parent == ["cwd"])
    }

    @Test(
        .enabled(if: httpbinReady, "httpbin or the courier binary missing"),
        arguments: [
            "attachment; filename=\"../escaped.txt\"",
            "attachment; filename*=UTF-8''..%2Fescaped.txt",
            "attachment; filename=\"/tmp/escaped.txt\"",
            "attachment; filename=\"..\"",
            "attachment; filename=\".profile\"",
        ]
    )
    func aNameThatIsNotBareFallsBackToTheURLsName(disposition: String) async throws {
        let names = try await download(disposition: disposition)
        #expect(names.folder == ["response-headers"])
        #expect(names.parent == ["cwd"])
    }
}
