import CourierTesting
import ProfileApp
import Testing

@Test func loadsProfile() async throws {
    let transport = MockTransport()
    transport.stub(url: "https://api.example.com/me", json: #"{"name":"Ada"}"#)

    let profile = try await ProfileLoader(transport: transport).load()

    #expect(profile?.name == "Ada")
    #expect(transport.requests.map(\.url.absoluteString) == ["https://api.example.com/me"])
}
