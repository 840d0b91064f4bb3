import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// A one-shot body (an async producer) sent twice, as a session following a 307 or retrying would:
/// the second transfer must fail with a typed error, never send an empty chunked body.
@Suite struct CurlOneShotBodyTests {
    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aOneShotBodyUnderA307FailsTheSecondHopWithATypedError() async throws {
        // Given: a POST whose body is a producer, answered with a 307 to /upload
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let body = HTTPBody(length: nil, producer: PatternProducer(chunks: 10, chunkSize: 1_000))
        let first = HTTPRequest(method: .post, url: base.adding("/redirect-307"), body: body)
        let redirected = await record(transport.startTransfer(first))
        let (head, location) = try #require(redirected.redirect)
        #expect(head.status.code == 307)
        // nginx may answer before it reads the body, so how much went out varies; the claim does not
        #expect(first.body.producer?.isConsumed == true)

        // When: the 307 is followed with the same body, as RFC 9110 §15.4.8 asks
        var second = first
        second.url = location
        let followed = await record(transport.startTransfer(second))

        // Then: the transfer fails at once, naming the cause, and no request reached the server
        let error = try #require(followed.error)
        #expect(error.category == .requestBodyAlreadyConsumed)
        #expect((error.underlying as? HTTPValueError)?.code == .bodyAlreadyConsumed)
        #expect(followed.response == nil)
        #expect(!second.body.isReplayable)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTP, "TEST_HTTP_URL not set"))
    func aReplayableBodyIsSentAgainInFull() async throws {
        // The control: a body of bytes sent twice arrives twice, whole.
        let base = try #require(CurlTestServers.http)
        let transport = CurlTestServers.transport()
        let request = HTTPRequest(
            method: .post,
            url: base.adding("/upload"),
            body: HTTPBody(PatternProducer.bytes(count: 4_321))
        )
        for _ in 0..<2 {
            let result = try await transport.startTransfer(request).collect(upTo: 1 << 10)
            #expect(
                String(decoding: result.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "4321"
            )
        }
        await transport.shutdown()
    }
}
