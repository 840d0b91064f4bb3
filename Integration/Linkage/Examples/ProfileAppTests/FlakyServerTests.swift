import CourierHTTP
import CourierTesting
import CourierTransport
import Foundation
import ProfileApp
import Testing

@Test func reportsAConnectionLostMidBody() async throws {
    let transport = MockTransport()
    transport.stub(
        url: "https://api.example.com/me",
        reply: .init(steps: [
            .response(HTTPResponse(status: .ok)),
            .body(Data(#"{"na"#.utf8)),
            .fail(TransportError(category: .connectionLost, message: "reset by peer")),
        ])
    )

    await #expect {
        try await ProfileLoader(transport: transport).load()
    } throws: { ($0 as? TransportError)?.category == .connectionLost }
}
