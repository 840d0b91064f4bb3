/// Why an ``AuthenticationInterceptor`` could not authenticate a request (Alamofire's
/// `AuthenticationError`, with one case of Courier's own).
///
/// It reaches the app as the `underlying` error of the task's `SessionError`: of kind
/// `adaptationFailed` when the request could not be sent, `retryFailed` when a refused request
/// could not be retried. The authenticator's own refresh errors reach it the same way, as they
/// were thrown.
///
/// ```swift
/// switch response.error?.underlying as? AuthenticationError {
/// case .missingCredential?, .excessiveRefresh?, .refreshedCredentialRequiresRefresh?: showSignIn()
/// case nil: break
/// }
/// ```
public enum AuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There was no credential to authenticate the request with.
    case missingCredential
    /// The credential was refreshed more often than the interceptor's
    /// ``AuthenticationInterceptor/RefreshWindow`` allows: a refresh loop.
    case excessiveRefresh
    /// The authenticator's refresh returned a credential that itself says it requires a refresh, so
    /// it was not sent. Alamofire sends such a request into another refresh, until the refresh
    /// window stops it; failing at once spares the token service the loop.
    case refreshedCredentialRequiresRefresh

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .missingCredential: "There is no credential to authenticate the request with"
        case .excessiveRefresh: "The credential was refreshed too many times within the refresh window"
        case .refreshedCredentialRequiresRefresh: "The refreshed credential still requires a refresh"
        }
    }
}
