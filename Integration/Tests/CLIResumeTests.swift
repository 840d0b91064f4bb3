import Foundation
import Testing

/// `--download --continue` against `range_file_server.py`, which prints every request it receives:
/// a complete file is confirmed by the `416` alone (its `Content-Range: bytes */N` names the full
/// length), with no second request, and a partial one resumes where it stopped.
@Suite struct CLIResumeTests {
    static var ready: Bool { CLIProcess.binary != nil && IntegrationEnvironment.python != nil }
    static let size = 10240

    /// The resource the server serves: byte `i` is `i % 251`.
    static let resource = Data((0..<size).map { UInt8($0 % 251) })

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-resume-\(UUID().uuidString)-\(name)")
            .path
    }

    /// Writes `bytes` as a partial download of `url` with the resume record the session keeps.
    private func partialDownload(_ bytes: Data, of url: String, at path: String) throws {
        try bytes.write(to: URL(fileURLWithPath: path))
        let record: [String: Any] = [
            "url": url, "entityTag": "\"range-file-1\"", "partialFilePath": path, "offset": bytes.count,
        ]
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: path + ".resumedata"))
    }

    /// Runs `courier -d -c -o path url` against a fresh server; returns the result and the
    /// requests the server received.
    private func continueDownload(to path: String, prepare: (String) throws -> Void) async throws -> (
        CLIResult, [String]
    ) {
        let server = try await PythonTestServer.start("range_file_server.py", arguments: ["--size", "\(Self.size)"])
        let port = try #require(server.ready["PORT"])
        let url = "http://127.0.0.1:\(port)/file.bin"
        try prepare(url)
        let result = try await CLIProcess.run(["--no-proxy", "-d", "-c", "-o", path, url])
        // The server exits on its own once no request has come for a while.
        return (result, try await server.output())
    }

    @Test(.enabled(if: ready, "COURIER_PYTHON or the courier binary missing"))
    func aCompleteFileIsConfirmedByTheRefusedRangeAlone() async throws {
        let path = temporaryPath("complete")
        defer { for file in [path, path + ".resumedata"] { try? FileManager.default.removeItem(atPath: file) } }

        let (result, requests) = try await continueDownload(to: path) { url in
            try partialDownload(Self.resource, of: url, at: path)
        }

        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("already complete (\(Self.size) bytes)"), "\(result.standardError)")
        #expect(requests == ["GET /file.bin bytes=\(Self.size)-"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.resource)
        #expect(!FileManager.default.fileExists(atPath: path + ".resumedata"))
    }

    @Test(.enabled(if: ready, "COURIER_PYTHON or the courier binary missing"))
    func aFileLongerThanTheServersIsAnError() async throws {
        let path = temporaryPath("longer")
        defer { for file in [path, path + ".resumedata"] { try? FileManager.default.removeItem(atPath: file) } }

        let (result, requests) = try await continueDownload(to: path) { url in
            try partialDownload(Self.resource + Data("extra".utf8), of: url, at: path)
        }

        #expect(result.status == 1, "\(result.standardError)")
        #expect(
            result.standardError.contains("the server's file is \(Self.size) bytes but \(path) has \(Self.size + 5)"),
            "\(result.standardError)"
        )
        #expect(requests == ["GET /file.bin bytes=\(Self.size + 5)-"])
    }

    @Test(.enabled(if: ready, "COURIER_PYTHON or the courier binary missing"))
    func aPartialFileResumesWhereItStopped() async throws {
        let path = temporaryPath("partial")
        defer { for file in [path, path + ".resumedata"] { try? FileManager.default.removeItem(atPath: file) } }

        let (result, requests) = try await continueDownload(to: path) { url in
            try partialDownload(Self.resource.prefix(4000), of: url, at: path)
        }

        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("(resumed after 4000 bytes)"), "\(result.standardError)")
        #expect(requests == ["GET /file.bin bytes=4000-"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Self.resource)
    }
}
