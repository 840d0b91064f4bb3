import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import Foundation

/// The `session` rows' requests: through `HTTPSessionManager`, as an application makes them.
enum SessionClient {
    /// The model `session-json-c32` decodes: the shape of `small.json` that `ci/servers` writes.
    struct User: Decodable, Sendable {
        var id: Int
        var name: String
        var email: String
        var active: Bool
        var roles: [String]
        var score: Double
    }

    /// A GET through the manager with the data response serializer (validation included).
    static func data(_ url: String, on api: HTTPSessionManager) async -> TransportClient.Outcome {
        do {
            let response = try await api.data(.get, url)
            return outcome(of: response, bytes: response.value?.count ?? 0)
        } catch {
            log("request failed: \(error)")
            return TransportClient.Outcome()
        }
    }

    /// A GET through the manager decoded as ``User``.
    static func decodable(_ url: String, on api: HTTPSessionManager) async -> TransportClient.Outcome {
        do {
            let response = try await api.decodable(.get, url, as: User.self)
            guard response.value?.id == 42 else {
                log("request failed: decoded \(String(describing: response.value))")
                return TransportClient.Outcome()
            }
            return outcome(of: response, bytes: response.data?.count ?? 0)
        } catch {
            log("request failed: \(error)")
            return TransportClient.Outcome()
        }
    }

    static func outcome<Value>(of response: DataResponse<Value>, bytes: Int) -> TransportClient.Outcome {
        var outcome = TransportClient.Outcome()
        outcome.ok = response.error == nil && response.response?.status.code == 200
        outcome.bytesDown = Int64(bytes)
        outcome.bytesUp = response.metrics.reduce(0) { $0 + $1.requestBodyBytes }
        outcome.newConnection = response.metrics.contains { !$0.reusedConnection }
        return outcome
    }

    /// CPU microseconds one decode of `body` into ``User`` costs, with the serializer the row
    /// uses (validation and `JSONDecoder`), measured in this process over many decodes.
    static func decodeMicroseconds(of body: Data, url: URL) -> Double {
        let serializer = DecodableResponseSerializer<User>()
        let request = HTTPRequest(url: url)
        let response = HTTPResponse(
            status: .ok,
            headers: (try? HTTPHeaders([("Content-Type", "application/json"), ("Content-Length", String(body.count))]))
                ?? HTTPHeaders(),
            url: url
        )
        let rounds = 20_000
        var decoded = 0
        let (_, cpu) = measure {
            for _ in 0..<rounds
            where serializer.serializedResponse(response: response, data: body, request: request).value != nil {
                decoded += 1
            }
        }
        if decoded != rounds { log("session: only \(decoded) of \(rounds) decodes succeeded") }
        return cpu / Double(rounds)
    }
}
