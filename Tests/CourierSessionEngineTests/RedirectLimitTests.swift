import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTesting
import Foundation
import Testing

/// The session's default redirect limit, 16, at its edge: a chain of 16 redirects is followed to
/// its end, a chain of 17 fails with the typed error after 17 requests.
@Suite struct RedirectLimitTests {
    /// A transport whose `/hop/N` redirects to `/hop/N+1` until `/hop/<hops>`, which answers 200.
    private func chain(of hops: Int) -> MockTransport {
        let transport = MockTransport()
        transport.stub(
            matching: { _ in true },
            respond: { recorded in
                let hop = Int(recorded.url.lastPathComponent) ?? 0
                guard hop < hops else { return .init(status: 200, body: Data("end".utf8)) }
                return .redirect(to: Self.hop(hop + 1))
            }
        )
        return transport
    }

    private static func hop(_ number: Int) -> URL {
        URL(string: "https://api.example.com/hop/\(number)")!
    }

    @Test func sixteenRedirectsAreFollowed() async throws {
        #expect(SessionConfiguration().maximumRedirects == 16)
        let transport = chain(of: 16)
        let response = await SessionManager(transport: transport)
            .response(for: HTTPRequest(url: Self.hop(0)), serializer: DataResponseSerializer())
        #expect(response.error == nil)
        #expect(response.value == Data("end".utf8))
        #expect(response.redirects.count == 16)
        #expect(transport.requests.count == 17)
    }

    @Test func theSeventeenthRedirectIsATypedError() async {
        let transport = chain(of: 17)
        let response = await SessionManager(transport: transport)
            .response(for: HTTPRequest(url: Self.hop(0)), serializer: DataResponseSerializer())
        let visited = (0...16).map(Self.hop)
        #expect(response.error?.kind == .redirect(.tooManyRedirects(limit: 16, visited: visited)))
        #expect(transport.requests.count == 17)
    }
}
