import CourierTesting
import Foundation
import ProfileApp
import Testing

let api = URL(string: "https://api.example.com/v1/")!

@Test func loadsTheProfileWithTheToken() async throws {
    let transport = MockTransport()
    transport.stub(url: "https://api.example.com/v1/me", json: #"{"id":1,"name":"Ada"}"#)
    let client = ProfileClient(baseURL: api, token: "t0k3n", transport: transport)

    let profile = try await client.profile()

    #expect(profile == Profile(id: 1, name: "Ada"))
    #expect(transport.verify(.method(.get) && .path("/v1/me") && .header("Authorization", "Bearer t0k3n")) == nil)
    await client.shutdown()
}

@Test func retriesAnOverloadedServer() async throws {
    let transport = MockTransport()
    transport.stub(url: "https://api.example.com/v1/me", json: #"{"id":1,"name":"Ada"}"#)
    transport.stub(
        url: "https://api.example.com/v1/me",
        reply: .init(status: 503, headers: ["Retry-After": "0"]),
        times: 1
    )
    let client = ProfileClient(baseURL: api, token: "t0k3n", transport: transport)

    let profile = try await client.profile()

    #expect(profile.name == "Ada")
    #expect(transport.verify(.path("/v1/me") && .header("Authorization", "Bearer t0k3n"), called: 2) == nil)
    await client.shutdown()
}

@Test func sendsTheNewNameAsJSON() async throws {
    let transport = MockTransport()
    transport.stub(method: .put, url: "https://api.example.com/v1/me", json: #"{"id":1,"name":"Grace"}"#)
    let client = ProfileClient(baseURL: api, token: "t0k3n", transport: transport)

    let profile = try await client.rename(to: "Grace")

    #expect(profile == Profile(id: 1, name: "Grace"))
    let sent: RequestMatcher =
        .method(.put) && .header("Content-Type", "application/json") && .body(json: #"{"name":"Grace"}"#)
    #expect(transport.verify(sent, called: 1) == nil)
    await client.shutdown()
}
