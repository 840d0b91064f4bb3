import Courier
import CourierTesting
import Foundation
import Testing

/// The HTTP cache turned on through the root's configuration, with `import Courier` alone.
@Suite struct HTTPCacheOptionTests {
    struct Item: Decodable, Sendable, Equatable {
        let id: Int
    }

    @Test func theSessionConfigurationsCacheServesTheSecondCall() async throws {
        let transport = MockTransport()
        transport.stub(
            url: "https://api.example.com/v1/items/7",
            reply: .init(
                status: 200,
                headers: ["Content-Type": "application/json", "Cache-Control": "max-age=300"],
                body: Data(#"{"id":7}"#.utf8)
            )
        )
        let client = try CourierClient(baseURL: URL(string: "https://api.example.com/v1")) { configuration in
            configuration.makeTransport = { _ in transport }
            configuration.session.cache = HTTPCache(store: MemoryCacheStore())
        }

        let first = try await client.session.decodable(.get, "items/7", as: Item.self)
        let second = try await client.session.decodable(.get, "items/7", as: Item.self)

        #expect(first.value == Item(id: 7))
        #expect(second.value == Item(id: 7))
        #expect(first.cacheDisposition == .miss)
        #expect(second.cacheDisposition == .hit)
        #expect(transport.requests.count == 1)
        await client.shutdown()
    }
}
