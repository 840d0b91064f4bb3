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

    @Test func pathAsIsReachesTheRequest() throws {
        let kept = try RequestBuilder(line: line(["--path-as-is", "http://example.test/a/../b"])).build()
        let squashed = try RequestBuilder(line: line(["http://example.test/a/../b"])).build()

        #expect(kept.sendsPathAsIs)
        #expect(kept.url.absoluteString == "http://example.test/a/../b")
        #expect(!squashed.sendsPathAsIs)
    }
}
