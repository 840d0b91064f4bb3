public import CourierHTTP

/// Decides what a task does with a redirect: follow it, follow a changed request, or stop.
///
/// The session proposes the next request with RFC 9110's rules already applied (see
/// ``Redirector``); a handler that does not follow makes the 3xx response, with its body, the
/// task's result, as AFNetworking's `taskWillPerformHTTPRedirection` returning `nil` does.
///
/// ```swift
/// struct SameHostOnly: RedirectHandling {
///     func decide(proposed: HTTPRequest, response: HTTPResponse, from request: HTTPRequest) async -> RedirectDecision {
///         proposed.url.host == request.url.host ? .follow : .doNotFollow
///     }
/// }
/// ```
public protocol RedirectHandling: Sendable {
    /// What to do with a redirect.
    ///
    /// - Parameters:
    ///   - proposed: The next request: method, body and headers adjusted for the status and origin.
    ///   - response: The redirect response.
    ///   - request: The request that was redirected.
    /// - Returns: The decision.
    func decide(proposed: HTTPRequest, response: HTTPResponse, from request: HTTPRequest) async -> RedirectDecision
}

/// A redirect handler's answer.
public enum RedirectDecision: Sendable {
    /// Send the proposed request.
    case follow
    /// Send this request instead (it is still checked for scheme, limit and loops).
    case followModified(HTTPRequest)
    /// Stop: the redirect response is the task's result.
    case doNotFollow
}

/// The session's redirect handlers: follow, refuse, or modify with a closure.
///
/// ```swift
/// let session = SessionManager(transport: transport, redirectHandler: Redirector.doNotFollow)
/// let tagged = Redirector { proposed, _, _ in
///     var request = proposed
///     try? request.headers.set(name: "X-Redirected", value: "1")
///     return .followModified(request)
/// }
/// ```
public struct Redirector: RedirectHandling {
    private let decision: @Sendable (HTTPRequest, HTTPResponse, HTTPRequest) async -> RedirectDecision

    /// A handler that asks `decision`.
    ///
    /// - Parameter decision: Given the proposed request, the redirect response and the request
    ///   that was redirected, returns what to do.
    public init(_ decision: @escaping @Sendable (HTTPRequest, HTTPResponse, HTTPRequest) async -> RedirectDecision) {
        self.decision = decision
    }

    /// Follows every redirect (within the session's limit): the default.
    public static let follow = Redirector { _, _, _ in .follow }
    /// Follows none: every redirect response is a result.
    public static let doNotFollow = Redirector { _, _, _ in .doNotFollow }

    /// Asks the closure.
    public func decide(proposed: HTTPRequest, response: HTTPResponse, from request: HTTPRequest) async
        -> RedirectDecision
    {
        await decision(proposed, response, request)
    }
}
