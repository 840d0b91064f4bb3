import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// Upload progress keeps TransferEvent's order: every `uploadProgress` comes before the response head,
/// and the last one says the whole body went out (the 50 ms throttle must not swallow it).
@Suite struct CurlUploadProgressTests {
    private enum Step: Equatable {
        case upload(TransferProgress)
        case head(Int)
        case other
        case end
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func reportsTheWholeBodyBeforeTheResponseAndNothingAfter() async throws {
        // Given
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let length = 10 << 20
        let body = HTTPBody(Data(repeating: 0x5A, count: length))
        let request = HTTPRequest(method: .post, url: base.adding("/upload"), body: body)

        // When
        var steps: [Step] = []
        for await event in transport.startTransfer(request, options: TransferOptions()).events {
            switch event {
            case .uploadProgress(let progress): steps.append(.upload(progress))
            case .response(let response): steps.append(.head(response.status.code))
            case .completed: steps.append(.end)
            case .failed(let error): Issue.record("the upload failed: \(error)")
            default: steps.append(.other)
            }
        }
        await transport.shutdown()

        // Then: progress, then the head, then no more progress
        let head = try #require(steps.firstIndex { if case .head = $0 { true } else { false } })
        #expect(steps[head] == .head(200))
        #expect(steps[..<head].last == .upload(TransferProgress(completed: Int64(length), total: Int64(length))))
        #expect(steps[..<head].allSatisfy { if case .upload = $0 { true } else { false } })
        #expect(!steps[head...].contains { if case .upload = $0 { true } else { false } })
        #expect(steps.last == .end)
    }
}
