public import CourierHTTP
internal import CourierLocking
public import CourierSessionCore

/// A redirect handler that records every redirect the session proposed and answers from a script.
///
/// The scripted `decisions` answer the first redirects in order, then every redirect gets
/// `otherwise` (follow, by default, as the session's own default handler).
///
/// ```swift
/// let redirects = RecordingRedirectHandler()
/// let session = SessionManager(transport: transport, redirectHandler: redirects)
/// _ = await session.data(for: request)
/// #expect(redirects.redirects.map(\.response.status.code) == [301])
/// #expect(redirects.redirects.first?.proposed.url.path() == "/v2/me")
/// ```
public final class RecordingRedirectHandler: RedirectHandling {
    /// One redirect the session asked about.
    public struct Redirect: Sendable {
        /// The next request the session proposed.
        public let proposed: HTTPRequest
        /// The redirect response.
        public let response: HTTPResponse
        /// The request that was redirected.
        public let request: HTTPRequest
    }

    private struct State {
        var decisions: [RedirectDecision]
        let otherwise: RedirectDecision
        var redirects: [Redirect] = []
    }

    private let state: Lock<State>

    /// Creates a handler.
    ///
    /// ```swift
    /// let stopping = RecordingRedirectHandler(otherwise: .doNotFollow)
    /// ```
    /// - Parameters:
    ///   - decisions: The answers to the first redirects, in order.
    ///   - otherwise: The answer once `decisions` are used up.
    public init(decisions: [RedirectDecision] = [], otherwise: RedirectDecision = .follow) {
        state = Lock(State(decisions: decisions, otherwise: otherwise))
    }

    /// Every redirect asked about, in order.
    public var redirects: [Redirect] { state.withLock { $0.redirects } }

    /// Records the redirect and answers with the next scripted decision, else the default one.
    ///
    /// - Parameters:
    ///   - proposed: The next request.
    ///   - response: The redirect response.
    ///   - request: The request that was redirected.
    /// - Returns: The decision.
    public func decide(proposed: HTTPRequest, response: HTTPResponse, from request: HTTPRequest) async
        -> RedirectDecision
    {
        state.withLock { state in
            state.redirects.append(Redirect(proposed: proposed, response: response, request: request))
            return state.decisions.isEmpty ? state.otherwise : state.decisions.removeFirst()
        }
    }
}
