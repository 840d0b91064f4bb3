public import Dispatch

/// The settings of a ``SessionManager`` beside its transport and interceptors.
///
/// ```swift
/// var configuration = SessionConfiguration()
/// configuration.maximumRedirects = 5
/// configuration.completionQueue = DispatchQueue(label: "app.network.completions")
/// ```
public struct SessionConfiguration: Sendable {
    /// Where completion handlers run; `nil` uses a serial queue of the session's (a Linux server has
    /// no main run loop to default to, as AFNetworking defaults to the main queue).
    public var completionQueue: DispatchQueue?
    /// The group completion handlers run in (AFNetworking's `completionGroup`); `nil` uses one
    /// group of the session's.
    public var completionGroup: DispatchGroup?
    /// Redirects followed per task before it fails with ``SessionError/RedirectFailure/tooManyRedirects(limit:)``.
    public var maximumRedirects = 10
    /// Whether a redirect from https to http is followed.
    public var allowsInsecureRedirects = false
    /// The longest a whole call may take, across retries and redirects; `nil` for no deadline.
    /// Each attempt's own `timeout` still applies.
    public var deadline: Duration?
    /// The most bytes of a followed redirect's body read and dropped before its transfer is
    /// cancelled instead (so the connection can be reused for small bodies).
    public var maximumRedirectBodyDrain = 64 << 10

    /// Creates the defaults.
    public init() {}
}
