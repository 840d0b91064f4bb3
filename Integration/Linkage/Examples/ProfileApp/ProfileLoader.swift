import CourierHTTP
import CourierSerialization
import CourierTransport

public struct Profile: Decodable, Sendable {
    public let name: String
}

/// App code: it is handed a transport, so tests can hand it a mock.
public struct ProfileLoader: Sendable {
    let transport: any HTTPTransport

    public init(transport: any HTTPTransport) {
        self.transport = transport
    }

    public func load() async throws -> Profile? {
        let request = try HTTPRequestSerializer().request(method: .get, urlString: "https://api.example.com/me")
        let result = try await transport.startTransfer(request).collect(upTo: 1 << 20)
        return try DecodableResponseSerializer<Profile>().serialize(response: result.response, data: result.body)
    }
}
