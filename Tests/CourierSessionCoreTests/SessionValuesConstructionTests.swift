import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierTransport
import FoundationEssentials
import Testing

/// What an app's tests build by hand: the errors, events and responses a session would give them.
@Suite struct SessionValuesConstructionTests {
    static let url = URL(string: "https://api.example.com/items")!

    @Test func aServerTrustFailureCarriesAFNetworkings1202AndItsText() {
        let error = SessionError.serverTrustFailure(url: Self.url, reason: "certificate has expired")

        #expect(error.kind == .transport(.serverTrustFailed))
        #expect(error.urlErrorCode == -1202)
        #expect(
            error.message
                == "The certificate for this server is invalid. You might be connecting to a server that is pretending to be \u{201C}api.example.com\u{201D} which could put your confidential information at risk."
        )
        #expect(error.transportError?.message == "certificate has expired")
        #expect(error.failingURL == Self.url)
        #expect(error.description.hasSuffix("(certificate has expired) [https://api.example.com/items]"))
    }

    @Test func theTransportConstructorIsTheSessionsMapping() {
        let timeout = TransportError(category: .timedOut, code: 28, message: "Operation timed out")
        let cancel = TransportError(category: .cancelled, message: "aborted")
        let response = HTTPResponse(status: HTTPStatus(code: 200))

        let timedOut = SessionError.transport(timeout, url: Self.url, response: response, data: Data("par".utf8))
        let cancelled = SessionError.transport(cancel, url: Self.url)

        #expect(timedOut.kind == .transport(.timedOut))
        #expect(timedOut.urlErrorCode == -1001)
        #expect(timedOut.message == "Operation timed out")
        #expect(timedOut.response?.status.code == 200)
        #expect(timedOut.data == Data("par".utf8))
        #expect(cancelled.kind == .cancelled)
        #expect(cancelled.urlErrorCode == -999)
    }

    @Test func theCancelledAndSerializationConstructors() {
        let request = HTTPRequest(url: Self.url)
        let response = HTTPResponse(status: HTTPStatus(code: 404))
        let refusal = DataResponseSerializer().serializedResponse(response: response, data: nil, request: request).error

        let cancelled = SessionError.cancelled(Self.url)
        let serialization = refusal.map {
            SessionError.serialization($0, request: request, response: response, data: Data("gone".utf8))
        }

        #expect(cancelled.kind == .cancelled && cancelled.message == "the task was cancelled")
        #expect(serialization?.kind == .serialization)
        #expect(serialization?.urlErrorCode == -1011)
        #expect(serialization?.response?.status.code == 404)
        #expect(serialization?.data == Data("gone".utf8))
    }

    @Test func anEventTakesEveryField() {
        let request = HTTPRequest(url: Self.url)
        let response = HTTPResponse(status: HTTPStatus(code: 200))

        let event = SessionEvent(
            .taskCompleted,
            task: 7,
            request: request,
            response: response,
            error: .cancelled(Self.url),
            filePath: "/tmp/file",
            cacheDisposition: .revalidated
        )

        #expect(event.kind == .taskCompleted)
        #expect(event.taskIdentifier == 7)
        #expect(event.request?.url == Self.url)
        #expect(event.response?.status.code == 200)
        #expect(event.error?.kind == .cancelled)
        #expect(event.filePath == "/tmp/file")
        #expect(event.cacheDisposition == .revalidated)
        #expect(event.kind.notificationName == "com.alamofire.networking.task.complete")
    }

    @Test func aDataResponseTakesEveryField() throws {
        let request = HTTPRequest(url: Self.url)
        let redirect = HTTPResponse(status: HTTPStatus(code: 302))
        let response = HTTPResponse(status: HTTPStatus(code: 200))

        let value = DataResponse<String>(
            request: request,
            response: response,
            data: Data("ok".utf8),
            value: "ok",
            error: nil,
            redirects: [redirect],
            retryCount: 2,
            cacheDisposition: .miss
        )

        #expect(try value.get() == "ok")
        #expect(value.redirects.map(\.status.code) == [302])
        #expect(value.retryCount == 2)
        #expect(value.cacheDisposition == .miss)
    }

    @Test func theTransientCategoriesAreTheNetworksFailures() {
        #expect(
            TransportError.Category.transient == [.timedOut, .cannotConnect, .connectionLost, .nameResolutionFailed]
        )
    }
}
