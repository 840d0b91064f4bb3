import CourierTesting
import Foundation
import ProfileApp
import Testing

@Test func followsAMovedEndpointAndSignsEveryHop() async throws {
    let transport = MockTransport()
    let moved = URL(string: "https://api.example.com/v2/me")!
    transport.stub(url: "https://api.example.com/v1/me", reply: .redirect(status: 301, to: moved))
    transport.stub(url: moved.absoluteString, json: #"{"id":1,"name":"Ada"}"#)
    let client = ProfileClient(baseURL: api, token: "t0k3n", transport: transport)

    let profile = try await client.profile()

    #expect(profile.name == "Ada")
    #expect(transport.requests.map(\.url.path) == ["/v1/me", "/v2/me"])
    #expect(transport.verify(.header("Authorization", "Bearer t0k3n"), called: 2) == nil)
    await client.shutdown()
}
