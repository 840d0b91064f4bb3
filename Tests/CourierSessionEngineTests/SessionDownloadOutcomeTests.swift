import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// How a download ends when its response is refused or its request cannot be resumed: a body that
/// arrived whole goes to the destination beside the validation error (AFNetworking's download tasks
/// and Alamofire's `DownloadRequest` move it before validating), and only a `GET` with a validator
/// leaves resume data.
@Suite struct SessionDownloadOutcomeTests {
    private let url = URL(string: "https://files.example.com/report.bin")!

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID())-\(name)").path
    }

    private func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test(arguments: [404, 500])
    func aRefusedStatusLeavesItsBodyAtTheDestinationWithTheError(status: Int) async throws {
        // Given: a server answering with an error page
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: status, body: Data("not here".utf8), chunkSize: 3))
        let recorder = RecordingEventMonitor()
        let session = SessionManager(transport: transport, eventMonitors: [recorder])
        let partial = temporaryPath("report.part")
        let target = temporaryPath("report.bin")
        defer { try? FileManager.default.removeItem(atPath: target) }

        // When: it is downloaded with a resume record kept
        let response = await session.download(
            for: HTTPRequest(url: url),
            options: DownloadOptions(partialFilePath: partial, persistsResumeRecord: true)
        ) { _, _ in DownloadDestination(path: target) }

        // Then: the body is at the destination, and the validation error and the response are intact
        #expect(response.filePath == target)
        #expect(try contents(target) == Data("not here".utf8))
        #expect(response.error?.kind == .serialization)
        #expect(response.error?.urlErrorCode == -1011)
        #expect(response.error?.serialization?.code == .unacceptableStatusCode)
        #expect(response.error?.response?.status.code == status)
        #expect(response.response?.status.code == status)
        #expect(response.resumeData == nil)
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: DownloadOptions.resumeRecordPath(forPartialFile: partial)))
        let moved = try #require(await recorder.first(.downloadMovedFile))
        #expect(moved.filePath == target)
    }

    @Test func aRefusedStatusWithoutADestinationLeavesNoFile() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 404, body: Data("not here".utf8)))
        let partial = temporaryPath("report.part")

        let response = await SessionManager(transport: transport).download(
            for: HTTPRequest(url: url),
            options: DownloadOptions(partialFilePath: partial),
            to: nil
        )

        #expect(response.error?.kind == .serialization)
        #expect(response.filePath == nil)
        #expect(!FileManager.default.fileExists(atPath: partial))
    }

    @Test func aRefusedStatusWhoseMoveFailsIsAMoveFailureThatNamesTheStatus() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 404, body: Data("not here".utf8)))
        let partial = temporaryPath("report.part")
        defer { try? FileManager.default.removeItem(atPath: partial) }
        let nowhere = temporaryPath("missing-folder") + "/report.bin"

        let response = await SessionManager(transport: transport).download(
            for: HTTPRequest(url: url),
            options: DownloadOptions(partialFilePath: partial)
        ) { _, _ in DownloadDestination(path: nowhere) }

        #expect(response.error?.kind == .fileMoveFailed)
        #expect(response.error?.serialization?.code == .unacceptableStatusCode)
        #expect(response.error?.message.contains("(HTTP 404, refused by validation)") == true)
        #expect(response.filePath == nil)
        #expect(try contents(partial) == Data("not here".utf8))
    }

    @Test func aRefusedStatusCutShortIsATransportFailureAndLeavesNothing() async throws {
        // The body did not arrive whole: today's rule for stopped transfers, and a 404 cannot resume.
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [
                .response(HTTPResponse(status: .notFound, headers: try HTTPHeaders(["ETag": "\"v1\""]))),
                .body(Data("not".utf8)),
                .fail(TransportError(category: .connectionLost, message: "reset")),
            ])
        )
        let partial = temporaryPath("report.part")
        let target = temporaryPath("report.bin")

        let response = await SessionManager(transport: transport).download(
            for: HTTPRequest(url: url),
            options: DownloadOptions(partialFilePath: partial)
        ) { _, _ in DownloadDestination(path: target) }

        #expect(response.error?.kind == .transport(.connectionLost))
        #expect(response.filePath == nil)
        #expect(response.resumeData == nil)
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    /// A download with `method` whose `200` names its version, cancelled after 5 of 10 bytes; also
    /// whether a resume record existed while it stalled.
    private func downloadCancelledHalfway(
        method: HTTPMethod,
        partial: String
    ) async throws -> (response: DownloadResponse, recordedMidway: Bool) {
        let transport = MockTransport()
        let head = HTTPResponse(
            status: .ok,
            headers: try HTTPHeaders(["ETag": "\"v1\"", "Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT"])
        )
        transport.stub(
            method: method,
            url: url.absoluteString,
            reply: .init(steps: [.response(head), .body(Data("01234".utf8)), .pause(.seconds(30))])
        )
        let halfway = CompletionSignal()
        let stopped = DeliveredValue<DownloadResponse>()
        let task = SessionManager(transport: transport).downloadTask(
            with: HTTPRequest(method: method, url: url, body: method == .get ? .empty : HTTPBody(Data("{}".utf8))),
            options: DownloadOptions(partialFilePath: partial, persistsResumeRecord: true),
            progress: { if $0.completed == 5 { halfway.signal() } },
            destination: nil,
            completion: { stopped.put($0) }
        )
        task.resume()
        await halfway.wait()
        let recordedMidway = FileManager.default.fileExists(
            atPath: DownloadOptions.resumeRecordPath(forPartialFile: partial)
        )
        task.cancel()
        return (await stopped.take(), recordedMidway)
    }

    @Test func aPostDownloadStoppedPartWayGivesNoResumeDataAndKeepsNoRecord() async throws {
        let partial = temporaryPath("export.part")
        let recordPath = DownloadOptions.resumeRecordPath(forPartialFile: partial)

        let (response, recordedMidway) = try await downloadCancelledHalfway(method: .post, partial: partial)

        #expect(response.error?.kind == .cancelled)
        #expect(response.resumeData == nil)
        #expect(!recordedMidway)
        #expect(!FileManager.default.fileExists(atPath: partial))
        #expect(!FileManager.default.fileExists(atPath: recordPath))
    }

    @Test func theSameDownloadAsAGetGivesResumeDataAndKeepsItsRecord() async throws {
        // The control for the POST case: only the method differs.
        let partial = temporaryPath("export.part")
        let recordPath = DownloadOptions.resumeRecordPath(forPartialFile: partial)
        defer { for path in [partial, recordPath] { try? FileManager.default.removeItem(atPath: path) } }

        let (response, recordedMidway) = try await downloadCancelledHalfway(method: .get, partial: partial)

        #expect(response.error?.kind == .cancelled)
        #expect(response.resumeData?.offset == 5)
        #expect(response.resumeData?.entityTag == "\"v1\"")
        #expect(recordedMidway)
        #expect(try contents(partial) == Data("01234".utf8))
        #expect(try ResumeData(encoded: contents(recordPath)) == response.resumeData)
    }

    @Test func aResumedDownloadMetByAnErrorStatusKeepsItsPartialFileToTryAgain() async throws {
        // Given: 5 bytes of version "v1" on disk, and a server that answers 503 for now
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 503, body: Data("busy".utf8)), times: 1)
        let session = SessionManager(transport: transport)
        let partial = temporaryPath("report.part")
        let target = temporaryPath("report.bin")
        defer { for path in [partial, target] { try? FileManager.default.removeItem(atPath: path) } }
        try Data("01234".utf8).write(to: URL(fileURLWithPath: partial))
        let resumeData = ResumeData(
            url: url,
            entityTag: "\"v1\"",
            lastModified: nil,
            partialFilePath: partial,
            offset: 5
        )

        // When: the download goes on
        let refused = await session.download(resumingWith: resumeData) { _, _ in DownloadDestination(path: target) }

        // Then: the error body was not the file's: the partial file stays, with resume data, and
        // nothing reaches the destination
        #expect(refused.error?.kind == .serialization)
        #expect(refused.response?.status.code == 503)
        #expect(refused.filePath == nil)
        #expect(refused.resumeData == resumeData)
        #expect(try contents(partial) == Data("01234".utf8))
        #expect(!FileManager.default.fileExists(atPath: target))

        // And: a later try resumes from it
        transport.stub(
            url: url.absoluteString,
            reply: .init(status: 206, headers: ["Content-Range": "bytes 5-9/10"], body: Data("56789".utf8))
        )
        let resumed = await session.download(resumingWith: try #require(refused.resumeData)) { _, _ in
            DownloadDestination(path: target)
        }
        #expect(resumed.error == nil)
        #expect(try contents(target) == Data("0123456789".utf8))
    }
}
