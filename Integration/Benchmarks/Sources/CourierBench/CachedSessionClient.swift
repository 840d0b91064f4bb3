import CourierHTTP
import CourierHTTPCache
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import Foundation

extension SessionClient {
    /// The cached variants of `session-small-c32`: the same GET through a session whose memory
    /// cache holds the response, served without a transfer (`hit`) or revalidated with a `304`
    /// each time (`revalidate`).
    enum CachedVariant: Sendable {
        case hit
        case revalidate

        init?(via: String) {
            switch via {
            case "session-cache-hit": self = .hit
            case "session-cache-revalidate": self = .revalidate
            default: return nil
            }
        }

        /// The session with a memory cache and an adapter that makes every request a hit (any
        /// stored response is used) or a revalidation (the request's own `no-cache`).
        func session(on transport: any HTTPTransport) -> SessionManager {
            var configuration = SessionConfiguration()
            configuration.cache = HTTPCache(store: MemoryCacheStore())
            return SessionManager(
                transport: transport,
                configuration: configuration,
                interceptor: Interceptor(adapters: [Adapter(variant: self)], retriers: [RetryPolicy()])
            )
        }

        /// A GET whose outcome counts only when it came from where the variant says (after the
        /// warming request, which must be a miss).
        func data(_ url: String, on api: HTTPSessionManager, warming: Bool = false) async -> TransportClient.Outcome {
            do {
                let response = try await api.data(.get, url)
                let expected: CacheDisposition = warming ? .miss : (self == .hit ? .hit : .revalidated)
                guard response.cacheDisposition == expected else {
                    log("request came from \(String(describing: response.cacheDisposition)), not \(expected)")
                    return TransportClient.Outcome()
                }
                return outcome(of: response, bytes: response.value?.count ?? 0)
            } catch {
                log("request failed: \(error)")
                return TransportClient.Outcome()
            }
        }
    }

    struct Adapter: RequestAdapter {
        let variant: CachedVariant

        func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
            var request = request
            switch variant {
            case .hit: request.cachePolicy = .returnCachedElseLoad
            case .revalidate: try request.headers.set(name: "Cache-Control", value: "no-cache")
            }
            return request
        }
    }
}
