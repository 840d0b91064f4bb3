import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

/// HTTP authentication answered by libcurl: the challenge head is never the response.
@Suite struct CurlAuthenticationTests {
    static var faultServer: URL? { CurlTestServers.url("FAULT_HTTP_URL") }
    static var hasFaultServer: Bool { faultServer != nil }

    /// Every head a transfer reported, in order, and its outcome.
    struct Heads {
        var statuses: [Int] = []
        var body = Data()
        var error: TransportError?
    }

    static func heads(_ transfer: HTTPTransfer) async -> Heads {
        var heads = Heads()
        for await event in transfer.events {
            switch event {
            case .response(let response): heads.statuses.append(response.status.code)
            case .redirect(let response, _): heads.statuses.append(response.status.code)
            case .body(let chunk): heads.body.append(chunk)
            case .failed(let error): heads.error = error
            default: break
            }
        }
        return heads
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func answersADigestChallengeAndReportsOnlyTheFinalResponse() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(url: base.adding("/digest-auth/auth/user/passwd"))
        request.credential = HTTPCredential(user: "user", password: "passwd", schemes: .digest)

        let heads = await Self.heads(transport.startTransfer(request))

        #expect(heads.error == nil)
        #expect(heads.statuses == [200])
        let echo = try #require(try JSONSerialization.jsonObject(with: heads.body) as? [String: Any])
        #expect(echo["authenticated"] as? Bool == true)
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func aRefusedDigestAnswerIsTheResponse() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(url: base.adding("/digest-auth/auth/user/passwd"))
        request.credential = HTTPCredential(user: "user", password: "wrong", schemes: .digest)

        let heads = await Self.heads(transport.startTransfer(request))

        // The challenge is skipped; the server's refusal of the answer is the one response.
        #expect(heads.error == nil)
        #expect(heads.statuses == [401])
        await transport.shutdown()
    }

    @Test(.enabled(if: CurlTestServers.hasHTTPBin, "TEST_HTTPBIN_URL not set"))
    func sendsBasicAtOnceAndWithoutACredentialGetsTheChallenge() async throws {
        let base = try #require(CurlTestServers.httpbin)
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(url: base.adding("/basic-auth/user/passwd"))
        #expect(await Self.heads(transport.startTransfer(request)).statuses == [401])

        request.credential = HTTPCredential(user: "user", password: "passwd")
        let heads = await Self.heads(transport.startTransfer(request))

        #expect(heads.statuses == [200])
        let echo = try #require(try JSONSerialization.jsonObject(with: heads.body) as? [String: Any])
        #expect(echo["user"] as? String == "user")
        await transport.shutdown()
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL not set"))
    func postsAReplayableBodyThroughADigestChallenge() async throws {
        let base = try #require(Self.faultServer)
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(
            method: .post,
            url: base.adding("/digest"),
            body: HTTPBody(PatternProducer.bytes(count: 50_000))
        )
        request.credential = HTTPCredential(user: "user", password: "passwd", schemes: [.basic, .digest])

        let heads = await Self.heads(transport.startTransfer(request))

        #expect(heads.error == nil)
        #expect(heads.statuses == [200])
        #expect(String(decoding: heads.body, as: UTF8.self) == "POST 50000\n")
        await transport.shutdown()
    }

    /// POSTs a 20,000-byte one-shot body to the fault server's Digest endpoint.
    static func postOneShotBody(schemes: HTTPCredential.Scheme) async throws -> Heads {
        let base = try #require(faultServer)
        let transport = CurlTestServers.transport()
        var request = HTTPRequest(
            method: .post,
            url: base.adding("/digest"),
            body: HTTPBody(length: nil, producer: PatternProducer(chunks: 20, chunkSize: 1_000))
        )
        request.credential = HTTPCredential(user: "user", password: "passwd", schemes: schemes)
        let heads = await heads(transport.startTransfer(request))
        await transport.shutdown()
        return heads
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL not set"))
    func aOneShotBodyThatMustBeSentTwiceFailsWithATypedError() async throws {
        // With a choice of schemes libcurl sends the body with the first, unauthenticated request;
        // answering the challenge needs it again, and a producer cannot start over.
        let heads = try await Self.postOneShotBody(schemes: [.basic, .digest])
        #expect(heads.statuses.isEmpty)
        #expect(heads.error?.category == .requestBodyAlreadyConsumed)
    }

    @Test(.enabled(if: hasFaultServer, "FAULT_HTTP_URL not set"))
    func aOneShotBodyWithDigestOnlyIsSentOnceAfterAnEmptyProbe() async throws {
        // With Digest alone libcurl probes with an empty body (it knows a challenge is coming), so
        // the producer is read once, by the answered request.
        let heads = try await Self.postOneShotBody(schemes: .digest)
        #expect(heads.error == nil)
        #expect(heads.statuses == [200])
        #expect(String(decoding: heads.body, as: UTF8.self) == "POST 20000\n")
    }

    @Test func aCredentialsDescriptionNeverShowsThePassword() {
        let credential = HTTPCredential(user: "ada", password: "s3cret", schemes: [.basic, .digest])
        #expect(credential.description == "ada (basic, digest)")
        #expect(!"\(credential)".contains("s3cret"))
    }
}
