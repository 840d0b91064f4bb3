import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import CourierTransport
import Foundation
import Testing

/// The task's serializer judges each complete response once, before the retriers are asked (as
/// Alamofire validates first), and the response carries the final judgement's value and error
/// (both, as AFNetworking hands them over), for the async call and the callback task alike.
@Suite struct SessionSerializerJudgementTests {
    private let url = URL(string: "https://api.example.com/judged")!

    /// The data serializer, counting the bodies it is given.
    struct CountingSerializer: ResponseSerializing {
        final class Calls: Sendable {
            let bodies = Lock<[String]>([])
        }
        let calls = Calls()

        var bodies: [String] { calls.bodies.withLock { $0 } }

        func serializedResponse(response: HTTPResponse?, data: Data?, request: HTTPRequest?) -> SerializedResponse<Data>
        {
            calls.bodies.withLock { $0.append(String(decoding: data ?? Data(), as: UTF8.self)) }
            return DataResponseSerializer().serializedResponse(response: response, data: data, request: request)
        }
    }

    /// Records the failures it is asked about; retries a refused response once.
    final class RecordingRetrier: RequestRetrier {
        let failures = Lock<[AttemptFailure]>([])

        func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
            -> RetryDecision
        {
            failures.withLock { $0.append(failure) }
            return attempt.retryCount == 0 ? .retry : .doNotRetry
        }
    }

    private func flakyTransport() -> MockTransport {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 200, body: Data("fine".utf8)))
        transport.stub(url: url.absoluteString, reply: .init(status: 503, body: Data("busy".utf8)), times: 1)
        return transport
    }

    @Test func eachResponseIsJudgedOnceAndTheRetrierSeesTheRefusal() async {
        let serializer = CountingSerializer()
        let retrier = RecordingRetrier()
        let session = SessionManager(transport: flakyTransport(), interceptor: Interceptor(retriers: [retrier]))

        let response = await session.response(for: HTTPRequest(url: url), serializer: serializer)

        #expect(serializer.bodies == ["busy", "fine"])
        #expect(response.value == Data("fine".utf8))
        #expect(response.error == nil)
        #expect(response.retryCount == 1)
        let failures = retrier.failures.withLock { $0 }
        #expect(failures.count == 1)
        guard case .validation(let refusal) = failures.first else {
            Issue.record("the retrier saw \(failures), not the serializer's refusal")
            return
        }
        #expect(refusal.response?.status.code == 503)
    }

    @Test func aRefusedFinalResponseKeepsItsValueBesideTheError() async {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 404, body: Data("missing".utf8)))
        let serializer = CountingSerializer()

        let response = await SessionManager(transport: transport)
            .response(for: HTTPRequest(url: url), serializer: serializer)

        #expect(serializer.bodies == ["missing"])
        #expect(response.value == Data("missing".utf8))
        #expect(response.error?.kind == .serialization)
        #expect(response.response?.status.code == 404)
    }

    @Test func aFailedTransferIsNotSerializedAndHasNoValue() async {
        let transport = MockTransport()
        transport.stub(
            url: url.absoluteString,
            reply: .init(error: TransportError(category: .cannotConnect, message: "refused"))
        )
        let serializer = CountingSerializer()

        let response = await SessionManager(transport: transport)
            .response(for: HTTPRequest(url: url), serializer: serializer)

        #expect(serializer.bodies.isEmpty)
        #expect(response.value == nil)
        #expect(response.error?.kind == .transport(.cannotConnect))
    }

    @Test func aCallbackTaskJudgesEachResponseOnceToo() async {
        let serializer = CountingSerializer()
        let retrier = RecordingRetrier()
        let session = SessionManager(transport: flakyTransport(), interceptor: Interceptor(retriers: [retrier]))

        let response = await withCheckedContinuation { (continuation: CheckedContinuation<DataResponse<Data>, Never>) in
            session.dataTask(with: HTTPRequest(url: url), serializer: serializer) { continuation.resume(returning: $0) }
                .resume()
        }

        #expect(serializer.bodies == ["busy", "fine"])
        #expect(response.value == Data("fine".utf8))
        #expect(response.error == nil)
        #expect(retrier.failures.withLock { $0.count } == 1)
    }

    @Test func aCallTheCallerCancelledFirstEndsCancelledAndLeavesNoTask() async {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, reply: .init(status: 200, body: Data("fine".utf8)))
        let session = SessionManager(transport: transport)
        let serializer = CountingSerializer()

        let call = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await session.response(for: HTTPRequest(url: url), serializer: serializer)
        }
        let response = await call.value

        #expect(response.error?.kind == .cancelled)
        #expect(serializer.bodies.isEmpty)
        #expect(transport.requests.isEmpty)
        #expect(session.tasks.isEmpty)
    }
}
