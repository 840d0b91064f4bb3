import CourierSerialization
import CourierSessionCore
import CourierTesting
import Foundation
import ProfileApp
import Testing

// The client's own logic on MockSession: which call it makes and what it makes of each answer,
// with no transport and no session pipeline underneath.

/// A session double shaped like the app's session: the API's base URL, JSON request bodies.
private func appSession() -> MockSession {
    MockSession(baseURL: URL(string: "https://api.example.com/v1"), requestSerializer: JSONRequestSerializer())
}

@Test func readsTheProfileFromTheSession() async throws {
    let session = appSession()
    session.stub(method: .get, url: "me", json: #"{"id":1,"name":"Ada"}"#)
    let client = ProfileClient(session: session)

    #expect(try await client.profile() == Profile(id: 1, name: "Ada"))
    #expect(session.verify(.method(.get) && .path("/v1/me"), called: 1) == nil)
}

@Test func renamesWithOnePutOfTheNewName() async throws {
    let session = appSession()
    session.stub(method: .put, url: "me", json: #"{"id":1,"name":"Grace"}"#)
    let client = ProfileClient(session: session)

    #expect(try await client.rename(to: "Grace") == Profile(id: 1, name: "Grace"))
    #expect(session.verify(.method(.put) && .path("/v1/me") && .body(json: #"{"name":"Grace"}"#), called: 1) == nil)
}

@Test(arguments: [
    (MockSession.Answer.response(status: 401), ProfileError.signedOut),
    (.response(status: 503), .server(status: 503)),
    (.json(#"{"id":"one"}"#), .malformedResponse),
    (.transportFailure(.connectionLost), .offline),
])
func mapsEachAnswerToWhatTheAppShows(answer: MockSession.Answer, shown: ProfileError) async {
    let session = appSession()
    session.stub(url: "me", answer: answer)
    let client = ProfileClient(session: session)

    await #expect(throws: shown) { try await client.profile() }
}
