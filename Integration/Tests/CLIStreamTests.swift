import Foundation
import Testing

/// `courier --stream`: Server-Sent Events printed as they arrive, across the fault server's drops.
@Suite struct CLIStreamTests {
    static var fault: URL? { CurlTestServers.url("FAULT_HTTP_URL") }

    @Test(.enabled(if: CLIProcess.binary != nil && fault != nil, "needs the courier binary and FAULT_HTTP_URL"))
    func printsEveryEventInTheStreamFormatAcrossReconnections() async throws {
        let url = try #require(Self.fault).adding("/sse?id=\(UUID().uuidString)&events=3&per_connection=2&retry=20")
        let result = try await CLIProcess.run(["--stream", url.absoluteString])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = (1...3).map { "id: \($0)\nevent: tick\ndata: event \($0)\ndata: line two\n\n" }.joined()
        #expect(result.outputText == expected)

        let conflict = try await CLIProcess.run(["--stream", "--download", url.absoluteString])
        #expect(conflict.status == 1)
    }
}
