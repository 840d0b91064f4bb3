import CourierHTTP
import CourierTransport
import Foundation
import Testing

@testable import CourierCLI

/// The request head `courier` prints (`--print=H`, `--verbose`, `--offline`) is the one libcurl
/// sends: the `Cookie` field the jar adds, and the path with or without its dot segments.
@Suite struct RequestHeadTests {
    private func line(_ arguments: [String]) throws -> RequestCommandLine {
        try RequestGrammar.parse(["--ignore-stdin"] + arguments, registry: CommandRegistry())
    }

    /// What `writeRequest` prints with `--print=H` (and the curl command line with `--verbose`).
    private func printed(_ request: HTTPRequest, jarCookies: [Cookie], verbose: Bool = false) throws -> String {
        var options = try line(["--pretty=none", "--print=H", "http://example.test/"])
        options.verbose = verbose
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-head-\(UUID().uuidString)")
            .path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = MessageWriter(
            selection: OutputSelection(options, stdoutIsTerminal: false),
            descriptor: descriptor,
            isTerminal: false
        )
        try writer.writeRequest(request, jarCookies: jarCookies)
        close(descriptor)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func pathAsIsReachesTheRequest() throws {
        let kept = try RequestBuilder(line: line(["--path-as-is", "http://example.test/a/../b"])).build()
        let squashed = try RequestBuilder(line: line(["http://example.test/a/../b"])).build()

        #expect(kept.sendsPathAsIs)
        #expect(kept.url.absoluteString == "http://example.test/a/../b")
        #expect(!squashed.sendsPathAsIs)
    }

    @Test func theJarsCookieFieldFollowsHostBeforeTheRequestsFields() throws {
        var request = HTTPRequest(url: URL(string: "http://example.test:8080/a/./../b?q=1")!)
        try request.headers.set(name: "User-Agent", value: "courier")
        try request.headers.set(name: "Cookie", value: "own=1")
        let jar = [
            Cookie(name: "sid", value: "42", domain: "example.test"),
            Cookie(name: "t", value: "x", domain: "example.test"),
        ]

        #expect(
            try printed(request, jarCookies: jar)
                == "GET /b?q=1 HTTP/1.1\nHost: example.test:8080\nCookie: sid=42; t=x\nUser-Agent: courier\nCookie: own=1\n\n"
        )
        request.sendsPathAsIs = true
        #expect(
            try printed(request, jarCookies: []).hasPrefix(
                "GET /a/./../b?q=1 HTTP/1.1\nHost: example.test:8080\nUser-Agent"
            )
        )
    }

    @Test func theCurlCommandLineCarriesTheJarsCookies() throws {
        let request = HTTPRequest(url: URL(string: "http://example.test/")!)

        let text = try printed(
            request,
            jarCookies: [Cookie(name: "sid", value: "42", domain: "example.test")],
            verbose: true
        )

        #expect(text.contains("curl -X 'GET' -b 'sid=***' -H 'User-Agent:' 'http://example.test/'"), "\(text)")
    }
}
