import CourierHTTP
import CourierSessionCore
import CourierTesting
import CourierTransport
import Foundation
import Testing

@testable import CourierSessionEngine

/// A resume answered `416` with `Content-Range: bytes */N`: when `N` is the resume offset, the
/// partial file already is the whole file (RFC 9110 §14.4, §15.5.17) and the download succeeds
/// with it; any other length, or none, is a changed file and stays `resumeFailed`.
@Suite struct SessionResumeCompleteFileTests {
    private let url = URL(string: "https://files.example.com/whole.bin")!
    private let bytes = Data("0123456789".utf8)

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID())-\(name)").path
    }

    /// Ten bytes of version "v1" on disk, and resume data for all of them.
    private func completePartialFile() throws -> (partial: String, resumeData: ResumeData) {
        let partial = temporaryPath("whole.part")
        try bytes.write(to: URL(fileURLWithPath: partial))
        let resumeData = ResumeData(
            url: url,
            entityTag: "\"v1\"",
            lastModified: nil,
            partialFilePath: partial,
            offset: Int64(bytes.count)
        )
        return (partial, resumeData)
    }

    @Test func a416NamingTheResumeOffsetCompletesTheDownloadWithTheFile() async throws {
        // Given: a partial file holding every byte, and a server that can serve none past it
        let (partial, resumeData) = try completePartialFile()
        let target = temporaryPath("whole.bin")
        defer { for path in [partial, target] { try? FileManager.default.removeItem(atPath: path) } }
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 416, headers: ["Content-Range": "bytes */10"]))
        let recorder = RecordingEventMonitor()
        let session = SessionManager(transport: transport, eventMonitors: [recorder])

        // When: the download goes on
        let response = await session.download(resumingWith: resumeData) { _, _ in DownloadDestination(path: target) }

        // Then: it succeeds with the file it had, and reports the 416 that proved it whole
        #expect(response.error == nil)
        #expect(response.resumeData == nil)
        #expect(response.filePath == target)
        #expect(response.response?.status.code == 416)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(transport.requests.first?.request.headers["Range"] == "bytes=10-")
        #expect(transport.requests.count == 1)
        let moved = try #require(await recorder.first(.downloadMovedFile))
        #expect(moved.filePath == target)
    }

    @Test(arguments: ["bytes */12", "bytes */9", nil])
    func a416WithAnotherLengthOrNoneStaysAResumeFailure(contentRange: String?) async throws {
        // Given: the file on the server is no longer the ten bytes on disk (or says nothing)
        let (partial, resumeData) = try completePartialFile()
        let target = temporaryPath("whole.bin")
        defer { for path in [partial, target] { try? FileManager.default.removeItem(atPath: path) } }
        let transport = MockTransport()
        let headers = contentRange.map { ["Content-Range": $0] } ?? [:]
        transport.stub(url: url.absoluteString, reply: .init(status: 416, headers: headers))
        let session = SessionManager(transport: transport)

        // When: the download goes on
        let response = await session.download(resumingWith: resumeData) { _, _ in DownloadDestination(path: target) }

        // Then: it fails as before, the refused head at hand, and nothing reaches the destination
        #expect(response.error?.kind == .transport(.resumeFailed))
        #expect(response.error?.transportError?.response?.status.code == 416)
        #expect(response.filePath == nil)
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(try Data(contentsOf: URL(fileURLWithPath: partial)) == bytes)
    }

    @Test func a416NamingTheOffsetOfAPartialFileThatShrankStaysAResumeFailure() async throws {
        // Given: resume data for ten bytes, but only four left on disk
        let (partial, resumeData) = try completePartialFile()
        try Data("0123".utf8).write(to: URL(fileURLWithPath: partial))
        let target = temporaryPath("whole.bin")
        defer { for path in [partial, target] { try? FileManager.default.removeItem(atPath: path) } }
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 416, headers: ["Content-Range": "bytes */10"]))
        let session = SessionManager(transport: transport)

        let response = await session.download(resumingWith: resumeData) { _, _ in DownloadDestination(path: target) }

        // Then: a file shorter than the offset is not the whole file
        #expect(response.error != nil)
        #expect(response.filePath == nil)
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test(
        arguments: [
            ("bytes */10", 10), ("BYTES  */10", 10), (" bytes */10 ", 10), ("bytes */", nil), ("bytes 0-9/10", nil),
            ("bytes */-1", nil), ("bytes */1x", nil),
        ] as [(String, Int64?)]
    )
    func theUnsatisfiedRangeFormIsReadStrictly(value: String, length: Int64?) {
        #expect(DownloadCompletion.unsatisfiedRangeLength(value) == length)
    }
}
