import CourierHTTP
import CourierSessionCore
import CourierTesting
import CourierTransport
import Foundation
import ProfileApp
import Testing

/// Retries at once, so that the tests do not wait for the backoff.
private var immediateRetries: RetryPolicy {
    var policy = RetryPolicy()
    policy.exponentialBackoffScale = 0
    return policy
}

@Test func aRefusedTokenSignsOutWithoutRetrying() async throws {
    let transport = MockTransport()
    transport.stub(url: "https://api.example.com/v1/me", reply: .init(status: 401))
    let client = ProfileClient(baseURL: api, token: "expired", transport: transport)

    await #expect(throws: ProfileError.signedOut) { try await client.profile() }
    #expect(transport.callCount(matching: .any) == 1)
    await client.shutdown()
}

@Test func aServerErrorIsReportedWithItsStatus() async throws {
    let transport = MockTransport()
    transport.stub(url: "https://api.example.com/v1/me", reply: .init(status: 404))
    let client = ProfileClient(baseURL: api, token: "t0k3n", transport: transport)

    await #expect(throws: ProfileError.server(status: 404)) { try await client.profile() }
    await client.shutdown()
}

@Test func aBodyThatIsNotAProfileIsMalformed() async throws {
    let transport = MockTransport()
    transport.stub(url: "https://api.example.com/v1/me", json: #"{"id":"one"}"#)
    let client = ProfileClient(baseURL: api, token: "t0k3n", transport: transport)

    await #expect(throws: ProfileError.malformedResponse) { try await client.profile() }
    await client.shutdown()
}

@Test func aConnectionLostMidBodyOnEveryAttemptIsOffline() async throws {
    let transport = MockTransport()
    transport.stub(
        url: "https://api.example.com/v1/me",
        reply: .init(steps: [
            .response(HTTPResponse(status: .ok)),
            .body(Data(#"{"na"#.utf8)),
            .fail(TransportError(category: .connectionLost, message: "reset by peer")),
        ])
    )
    let client = ProfileClient(baseURL: api, token: "t0k3n", transport: transport, retryPolicy: immediateRetries)

    await #expect(throws: ProfileError.offline) { try await client.profile() }
    #expect(transport.callCount(matching: .path("/v1/me")) == 3)  // the first attempt and two retries
    await client.shutdown()
}
