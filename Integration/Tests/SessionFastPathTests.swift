import CourierCurl
import CourierHTTP
import CourierLocking
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation
import Testing

/// The session's fast path: a task drains its transfer's events on the transport's own thread
/// (`courier-curl`), yet no app code runs there: adapters, redirect handlers, the response
/// disposition, retriers and serializers all run off the loop.
@Suite struct SessionFastPathTests {
    static var hasServers: Bool { CurlTestServers.hasHTTP }

    /// The names of the threads app code ran on.
    final class ThreadLog: Sendable {
        private let names = Lock<[String: Set<String>]>([:])

        func note(_ hook: String) {
            // The kernel's name of the calling thread (the transport names its loop `courier-curl`).
            let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?\n"
            names.withLock { _ = $0[hook, default: []].insert(String(name.dropLast())) }
        }

        var all: [String: Set<String>] { names.withLock { $0 } }
    }

    struct NotingSerializer: ResponseSerializing {
        let log: ThreadLog
        func serializedResponse(response: HTTPResponse?, data: Data?, request: HTTPRequest?) -> SerializedResponse<Data>
        {
            log.note("serializer")
            return DataResponseSerializer().serializedResponse(response: response, data: data, request: request)
        }
    }

    struct NotingInterceptor: RequestInterceptor {
        let log: ThreadLog
        func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
            log.note("adapter")
            return request
        }
        func retry(_ request: HTTPRequest, dueTo failure: AttemptFailure, attempt: AttemptContext) async
            -> RetryDecision
        {
            log.note("retrier")
            return attempt.retryCount == 0 ? .retry : .doNotRetry
        }
    }

    @Test(.enabled(if: hasServers, "TEST_HTTP_URL not set"))
    func noAppCodeRunsOnTheTransportsThread() async throws {
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let log = ThreadLog()
        var configuration = SessionConfiguration()
        configuration.responseDisposition = { _, _ in
            log.note("disposition")
            return .allow
        }
        let session = SessionManager(
            transport: transport,
            configuration: configuration,
            interceptor: NotingInterceptor(log: log),
            redirectHandler: Redirector { _, _, _ in
                log.note("redirect handler")
                return .follow
            }
        )
        // A redirect to a small body, then a 404 that the serializer refuses and the retrier retries once.
        let followed = await session.response(
            for: HTTPRequest(url: base.adding("/redirect")),
            serializer: NotingSerializer(log: log)
        )
        let refused = await session.response(
            for: HTTPRequest(url: base.adding("/no-such-file")),
            serializer: NotingSerializer(log: log)
        )

        #expect(followed.error == nil)
        #expect(refused.retryCount == 1)
        let seen = log.all
        #expect(Set(seen.keys) == ["adapter", "redirect handler", "disposition", "serializer", "retrier"])
        for (hook, threads) in seen {
            #expect(!threads.contains("courier-curl"), "\(hook) ran on the transport's thread")
        }
        await session.shutdown()
        await transport.shutdown()
    }
}
