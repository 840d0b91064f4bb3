import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTestSupport
import CourierTesting
import CourierTransport
import Foundation
import Testing

@Suite struct SessionDownloadTests {
    private let url = URL(string: "https://files.example.com/report.bin")!

    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID())-\(name)").path
    }

    @Test func aDownloadIsWrittenThenMovedToItsDestination() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(body: Data("hello, file".utf8), chunkSize: 4))
        let session = SessionManager(transport: transport)
        let target = temporaryPath("report.bin")
        defer { try? FileManager.default.removeItem(atPath: target) }
        let seenTemporary = Lock<String?>(nil)

        let response = await session.download(for: HTTPRequest(url: url)) { temporary, _ in
            seenTemporary.withLock { $0 = temporary }
            return DownloadDestination(path: target)
        }

        #expect(response.error == nil)
        #expect(response.filePath == target)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("hello, file".utf8))
        let temporary = try #require(seenTemporary.withLock { $0 })
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test func aFailedMoveIsAnErrorAndTheFileStaysWhereItWas() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(body: Data("data".utf8)))
        let session = SessionManager(transport: transport)
        let nowhere = temporaryPath("missing-folder") + "/report.bin"
        let seenTemporary = Lock<String?>(nil)

        let response = await session.download(for: HTTPRequest(url: url)) { temporary, _ in
            seenTemporary.withLock { $0 = temporary }
            return DownloadDestination(path: nowhere)
        }

        #expect(response.error?.kind == .fileMoveFailed)
        #expect(response.error?.urlErrorCode == -3000)
        #expect(response.filePath == nil)
        let temporary = try #require(seenTemporary.withLock { $0 })
        #expect(try Data(contentsOf: URL(fileURLWithPath: temporary)) == Data("data".utf8))
        try? FileManager.default.removeItem(atPath: temporary)

        // The same destination with its folders created works.
        let created = await session.download(for: HTTPRequest(url: url)) { _, _ in
            DownloadDestination(path: nowhere, createsIntermediateDirectories: true)
        }
        #expect(created.filePath == nowhere)
        try? FileManager.default.removeItem(atPath: (nowhere as NSString).deletingLastPathComponent)
    }

    @Test func aCancelledDownloadResumesFromItsEncodedResumeData() async throws {
        // Given: a 10-byte file whose second half never comes in the first transfer
        let transport = MockTransport()
        var head = HTTPResponse(status: .ok)
        try head.headers.set(name: "ETag", value: "\"v1\"")
        try head.headers.set(name: "Content-Length", value: "10")
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [
                .response(head), .body(Data("01234".utf8)), .pause(.seconds(30)), .body(Data("56789".utf8)),
            ]),
            times: 1
        )
        let session = SessionManager(transport: transport)
        let halfway = CompletionSignal()
        let stopped = DeliveredValue<DownloadResponse>()
        let task = session.downloadTask(
            with: HTTPRequest(url: url),
            progress: { if $0.completed == 5 { halfway.signal() } },
            destination: nil,
            completion: { stopped.put($0) }
        )
        task.resume()
        await halfway.wait()

        // When: it is cancelled, and its resume data goes through bytes as across a restart
        task.cancel()
        let first = await stopped.take()
        let resumeData = try ResumeData(encoded: try #require(first.resumeData).encoded())

        // Then: it resumes with Range and If-Range, and the file is whole
        #expect(first.error?.kind == .cancelled)
        #expect(resumeData.offset == 5)
        #expect(resumeData.entityTag == "\"v1\"")
        transport.stub(
            url: url.absoluteString,
            reply: .init(status: 206, headers: ["Content-Range": "bytes 5-9/10"], body: Data("56789".utf8))
        )
        let target = temporaryPath("whole.bin")
        defer { try? FileManager.default.removeItem(atPath: target) }
        let resumed = await session.download(resumingWith: resumeData) { _, _ in DownloadDestination(path: target) }
        #expect(resumed.error == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("0123456789".utf8))
        let sent = try #require(transport.requests.last?.request)
        #expect(sent.headers["Range"] == "bytes=5-")
        #expect(sent.headers["If-Range"] == "\"v1\"")
    }

    @Test func noResumeDataWithoutAValidator() async throws {
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(steps: [
                .response(HTTPResponse(status: .ok)), .body(Data("01234".utf8)),
                .fail(TransportError(category: .connectionLost, message: "reset")),
            ])
        )
        let response = await SessionManager(transport: transport).download(for: HTTPRequest(url: url), to: nil)
        #expect(response.error?.kind == .transport(.connectionLost))
        #expect(response.resumeData == nil)
    }
}
