import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import FoundationEssentials

/// The app's API client. It is handed a transport: the app passes `CurlTransport`, tests pass
/// `MockTransport`, and everything in between (token, retries, redirects, JSON) is the real
/// session pipeline either way.
public final class ProfileClient: Sendable {
    private let api: HTTPSessionManager

    public init(
        baseURL: URL,
        token: String,
        transport: any HTTPTransport,
        retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        let interceptor = Interceptor(adapters: [BearerToken(token: token)], retriers: [retryPolicy])
        api = HTTPSessionManager(
            baseURL: baseURL,
            session: SessionManager(transport: transport, interceptor: interceptor)
        )
        api.requestSerializer = JSONRequestSerializer()
    }

    /// The signed-in user's profile (`GET me`).
    public func profile() async throws(ProfileError) -> Profile {
        try await call { () throws(SessionError) in try await api.decodable(.get, "me", as: Profile.self) }
    }

    /// Renames the signed-in user (`PUT me` with `{"name": …}`) and returns the updated profile.
    public func rename(to name: String) async throws(ProfileError) -> Profile {
        try await call { () throws(SessionError) in
            try await api.decodable(.put, "me", encoding: ["name": name], as: Profile.self)
        }
    }

    /// Ends the calls in flight; the transport belongs to whoever made it.
    public func shutdown() async {
        await api.shutdown()
    }

    private func call(
        _ send: () async throws(SessionError) -> DataResponse<Profile>
    ) async throws(ProfileError) -> Profile {
        let response: DataResponse<Profile>
        do {
            response = try await send()
        } catch {
            throw ProfileError(error)
        }
        guard let profile = response.value else { throw .malformedResponse }
        return profile
    }
}

/// Adds the user's token to every attempt, retries and redirect hops included.
struct BearerToken: RequestAdapter {
    let token: String

    func adapt(_ request: HTTPRequest, for attempt: AttemptContext) async throws -> HTTPRequest {
        var request = request
        try request.headers.set(name: "Authorization", value: "Bearer \(token)")
        return request
    }
}
