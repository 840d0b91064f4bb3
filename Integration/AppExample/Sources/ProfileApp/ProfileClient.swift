import CourierHTTP
import CourierSerialization
import CourierSessionCore
import CourierSessionEngine
import CourierTransport
import FoundationEssentials

/// The app's API client. It calls whatever `HTTPSession` it is given: the app wires the real
/// pipeline (token, retries, redirects, JSON) over `CurlTransport`, its pipeline tests pass
/// `MockTransport` to the same wiring, and tests of the client's own logic pass `MockSession`.
public final class ProfileClient: Sendable {
    private let session: any HTTPSession
    private let endSession: @Sendable () async -> Void

    /// A client over `session`, which belongs to the caller (``shutdown()`` leaves it running).
    public init(session: any HTTPSession) {
        self.session = session
        endSession = {}
    }

    /// The app's wiring: a session of its own on `transport`, with the token on every attempt,
    /// the retry policy, and JSON request bodies.
    public convenience init(
        baseURL: URL,
        token: String,
        transport: any HTTPTransport,
        retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        let interceptor = Interceptor(adapters: [BearerToken(token: token)], retriers: [retryPolicy])
        let api = HTTPSessionManager(
            baseURL: baseURL,
            session: SessionManager(transport: transport, interceptor: interceptor)
        )
        api.requestSerializer = JSONRequestSerializer()
        self.init(session: api, endSession: api.shutdown)
    }

    private init(session: any HTTPSession, endSession: @escaping @Sendable () async -> Void) {
        self.session = session
        self.endSession = endSession
    }

    /// The signed-in user's profile (`GET me`).
    public func profile() async throws(ProfileError) -> Profile {
        try await call { () throws(SessionError) in try await session.decodable(.get, "me", as: Profile.self) }
    }

    /// Renames the signed-in user (`PUT me` with `{"name": …}`) and returns the updated profile.
    public func rename(to name: String) async throws(ProfileError) -> Profile {
        try await call { () throws(SessionError) in
            try await session.decodable(.put, "me", encoding: ["name": name], as: Profile.self)
        }
    }

    /// Ends the calls in flight of a session the client made; the transport belongs to whoever
    /// made it.
    public func shutdown() async {
        await endSession()
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
