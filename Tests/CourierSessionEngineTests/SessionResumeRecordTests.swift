import CourierHTTP
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// The resume record a download keeps beside its partial file with `persistsResumeRecord`, and
/// `ResumeData.recover(fromRecordAt:)` reading it back as a new process would.
@Suite struct SessionResumeRecordTests {
    private let url = URL(string: "https://files.example.com/big.iso")!

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID())-\(name)").path
    }

    private func head(_ fields: [String: String]) throws -> HTTPResponse {
        var response = HTTPResponse(status: .ok)
        for (name, value) in fields { try response.headers.set(name: name, value: value) }
        return response
    }

    /// Starts a download of 10 bytes that stalls after the first 5, and returns once they are written.
    private func startStalledDownload(
        _ session: SessionManager,
        transport: MockTransport,
        head: HTTPResponse,
        partial: String
    ) async -> (SessionTask, DeliveredValue<DownloadResponse>) {
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [
                .response(head), .body(Data("01234".utf8)), .pause(.seconds(30)), .body(Data("56789".utf8)),
            ]),
            times: 1
        )
        let halfway = CompletionSignal()
        let stopped = DeliveredValue<DownloadResponse>()
        let task = session.downloadTask(
            with: HTTPRequest(url: url),
            options: DownloadOptions(partialFilePath: partial, persistsResumeRecord: true),
            progress: { if $0.completed == 5 { halfway.signal() } },
            destination: nil,
            completion: { stopped.put($0) }
        )
        task.resume()
        await halfway.wait()
        return (task, stopped)
    }

    @Test func theRecordIsWrittenOnceTheHeadNamesTheVersionAndKeptOnCancel() async throws {
        // Given: a download to a chosen partial file, stalled after 5 of 10 bytes
        let transport = MockTransport()
        let session = SessionManager(transport: transport)
        let partial = temporaryPath("big.iso.part")
        let recordPath = DownloadOptions.resumeRecordPath(forPartialFile: partial)
        defer { for path in [partial, recordPath] { try? FileManager.default.removeItem(atPath: path) } }
        let (task, stopped) = await startStalledDownload(
            session,
            transport: transport,
            head: try head(["ETag": "\"v1\"", "Content-Length": "10"]),
            partial: partial
        )

        // Then: mid-way, the record names the version and the partial file, and recovery sees 5 bytes
        let midway = try ResumeData(encoded: Data(contentsOf: URL(fileURLWithPath: recordPath)))
        #expect(midway.url == url)
        #expect(midway.entityTag == "\"v1\"")
        #expect(midway.partialFilePath == partial)
        #expect(try ResumeData.recover(fromRecordAt: recordPath).offset == 5)

        // When: it is cancelled, the record stays, in step with the resume data handed back
        task.cancel()
        let response = await stopped.take()
        #expect(response.error?.kind == .cancelled)
        let kept = try ResumeData(encoded: Data(contentsOf: URL(fileURLWithPath: recordPath)))
        #expect(kept == response.resumeData)
        #expect(kept.offset == 5)
        #expect(FileManager.default.fileExists(atPath: partial))
    }

    @Test(arguments: [[:], ["ETag": "W/\"weak\""]])
    func noRecordWhenTheHeadNamesNoVersion(fields: [String: String]) async throws {
        let transport = MockTransport()
        let session = SessionManager(transport: transport)
        let partial = temporaryPath("plain.part")
        let recordPath = DownloadOptions.resumeRecordPath(forPartialFile: partial)
        defer { try? FileManager.default.removeItem(atPath: partial) }
        let (task, stopped) = await startStalledDownload(
            session,
            transport: transport,
            head: try head(fields),
            partial: partial
        )

        #expect(!FileManager.default.fileExists(atPath: recordPath))
        task.cancel()
        let response = await stopped.take()
        #expect(response.resumeData == nil)
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: recordPath))
    }

    @Test func theRecordIsRemovedWhenTheDownloadCompletesAndMoves() async throws {
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(headers: ["Last-Modified": "Sun, 29 Nov 2026 16:00:00 GMT"], body: Data("whole file".utf8))
        )
        let session = SessionManager(transport: transport)
        let partial = temporaryPath("done.part")
        let target = temporaryPath("done.bin")
        defer { try? FileManager.default.removeItem(atPath: target) }

        let response = await session.download(
            for: HTTPRequest(url: url),
            options: DownloadOptions(partialFilePath: partial, persistsResumeRecord: true)
        ) { temporary, _ in
            // The record exists until the very end: the move.
            #expect(temporary == partial)
            #expect(FileManager.default.fileExists(atPath: DownloadOptions.resumeRecordPath(forPartialFile: partial)))
            return DownloadDestination(path: target)
        }

        #expect(response.error == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("whole file".utf8))
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: DownloadOptions.resumeRecordPath(forPartialFile: partial)))
    }

    @Test func recoveryTakesTheOffsetFromThePartialFileAndResumesWithRangeAndIfRange() async throws {
        // Given: what a crash leaves: a record written when the head arrived (offset 0) and a
        // partial file that grew to 5 bytes afterwards
        let partial = temporaryPath("crashed.part")
        let recordPath = DownloadOptions.resumeRecordPath(forPartialFile: partial)
        let target = temporaryPath("crashed.bin")
        defer { for path in [partial, recordPath, target] { try? FileManager.default.removeItem(atPath: path) } }
        try ResumeData(url: url, entityTag: "\"v1\"", lastModified: nil, partialFilePath: partial, offset: 0)
            .encoded().write(to: URL(fileURLWithPath: recordPath))
        try Data("01234".utf8).write(to: URL(fileURLWithPath: partial))
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(
                status: 206,
                headers: ["Content-Range": "bytes 5-9/10", "ETag": "\"v1\""],
                body: Data("56789".utf8)
            )
        )

        // When
        let recovered = try ResumeData.recover(fromRecordAt: recordPath)
        let response = await SessionManager(transport: transport).download(
            resumingWith: recovered,
            options: DownloadOptions(persistsResumeRecord: true),
            to: { _, _ in DownloadDestination(path: target) }
        )

        // Then
        #expect(recovered.offset == 5)
        let sent = try #require(transport.requests.last?.request)
        #expect(sent.headers["Range"] == "bytes=5-")
        #expect(sent.headers["If-Range"] == "\"v1\"")
        #expect(response.error == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("0123456789".utf8))
        #expect(!FileManager.default.fileExists(atPath: recordPath))
    }

    @Test func aRestartRewritesTheRecordWithTheNewVersion() async throws {
        // Given: resuming "v1" from a 5-byte partial file; the server now has "v2" and sends it whole
        let transport = MockTransport()
        let session = SessionManager(transport: transport)
        let partial = temporaryPath("changed.part")
        let recordPath = DownloadOptions.resumeRecordPath(forPartialFile: partial)
        defer { for path in [partial, recordPath] { try? FileManager.default.removeItem(atPath: path) } }
        try Data("old!!".utf8).write(to: URL(fileURLWithPath: partial))
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [
                .response(try head(["ETag": "\"v2\"", "Content-Length": "10"])), .body(Data("abc".utf8)),
                .pause(.seconds(30)),
            ])
        )
        let started = CompletionSignal()
        let stopped = DeliveredValue<DownloadResponse>()
        let task = session.downloadTask(
            withResumeData: ResumeData(
                url: url,
                entityTag: "\"v1\"",
                lastModified: nil,
                partialFilePath: partial,
                offset: 5
            ),
            options: DownloadOptions(persistsResumeRecord: true),
            progress: { if $0.completed > 0 { started.signal() } },
            destination: nil,
            completion: { stopped.put($0) }
        )
        task.resume()
        await started.wait()

        // Then: the record names v2, from offset 0
        let record = try ResumeData(encoded: Data(contentsOf: URL(fileURLWithPath: recordPath)))
        #expect(record.entityTag == "\"v2\"")
        #expect(record.offset == 0)
        #expect(try ResumeData.recover(fromRecordAt: recordPath).offset == 3)
        task.cancel()
        _ = await stopped.take()
    }

    @Test func aResumedDownloadThatFailsBeforeAnyResponseKeepsItsPartialFileAndRecord() async throws {
        let partial = temporaryPath("offline.part")
        let recordPath = DownloadOptions.resumeRecordPath(forPartialFile: partial)
        defer { for path in [partial, recordPath] { try? FileManager.default.removeItem(atPath: path) } }
        try Data("01234".utf8).write(to: URL(fileURLWithPath: partial))
        let resumeData = ResumeData(
            url: url,
            entityTag: "\"v1\"",
            lastModified: nil,
            partialFilePath: partial,
            offset: 5
        )
        try resumeData.encoded().write(to: URL(fileURLWithPath: recordPath))
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(error: TransportError(category: .cannotConnect, message: "refused"))
        )

        let response = await SessionManager(transport: transport).download(
            resumingWith: resumeData,
            options: DownloadOptions(persistsResumeRecord: true),
            to: nil
        )

        #expect(response.error?.kind == .transport(.cannotConnect))
        #expect(response.resumeData == resumeData)
        #expect(try Data(contentsOf: URL(fileURLWithPath: partial)) == Data("01234".utf8))
        #expect(try ResumeData.recover(fromRecordAt: recordPath) == resumeData)
    }

    @Test func recoveryFailsWithATypedErrorForEachMissingPiece() throws {
        let partial = temporaryPath("gone.part")
        let recordPath = DownloadOptions.resumeRecordPath(forPartialFile: partial)
        defer { try? FileManager.default.removeItem(atPath: recordPath) }

        #expect(recoveryError(recordPath)?.code == .recordUnreadable)

        try Data("not json".utf8).write(to: URL(fileURLWithPath: recordPath))
        #expect(recoveryError(recordPath)?.code == .recordDamaged)

        try ResumeData(url: url, entityTag: "\"v1\"", lastModified: nil, partialFilePath: partial, offset: 5)
            .encoded().write(to: URL(fileURLWithPath: recordPath))
        let missing = recoveryError(recordPath)
        #expect(missing?.code == .partialFileMissing)
        #expect(missing?.path == partial)
        #expect(missing?.url == url)
    }

    private func recoveryError(_ path: String) -> ResumeRecordError? {
        do {
            _ = try ResumeData.recover(fromRecordAt: path)
            return nil
        } catch {
            return error
        }
    }
}
