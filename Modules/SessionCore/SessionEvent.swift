public import CourierHTTP
public import CourierReachability
public import CourierTransport
public import CourierWebSocket
internal import FoundationEssentials

/// Something that happened in a session, for event monitors and the session's event stream.
///
/// The kinds that AFNetworking posts as notifications carry its notification names
/// (``Kind/notificationName``); FoundationEssentials has no `NotificationCenter`, so a monitor or
/// the async stream takes their place.
///
/// ```swift
/// for await event in session.events() {
///     if case .taskCompleted = event.kind { print(event.taskIdentifier ?? -1, event.error ?? "ok") }
/// }
/// ```
public struct SessionEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// A task started or went on after a suspension (AF: only when it was not already running).
        case taskResumed
        /// A task was suspended (AF: only when it was not already suspended).
        case taskSuspended
        /// A request of a task is about to be sent (each attempt and each redirect hop).
        case requestStarted
        /// A response head arrived for a task.
        case responseReceived
        /// A task's redirect is being followed; ``SessionEvent/request`` is the next request.
        case redirectFollowed
        /// A task's failed attempt is retried.
        case retryScheduled
        /// Request body bytes were sent; ``SessionEvent/progress`` says how many.
        case bodySent
        /// Response body bytes arrived; ``SessionEvent/progress`` says how many.
        case dataReceived
        /// A transfer finished with metrics (one per attempt and hop).
        case metricsCollected
        /// The transport's trust evaluator judged the server of a new TLS connection (accepted or
        /// rejected); ``SessionEvent/trustEvaluation`` says what it saw and why. Only the transfer
        /// that opened the connection has one: a reused connection is not evaluated again.
        case serverTrustEvaluated
        /// A response head was refused by the session's `SessionConfiguration.responseDisposition`
        /// and the task is being cancelled (AFNetworking's `NSURLSessionResponseCancel`).
        case responseRejected
        /// A task completed, with or without an error.
        case taskCompleted
        /// The session was invalidated; no task runs after this.
        case sessionInvalidated
        /// A resumed download's server answered `206`: the download goes on from the partial file
        /// (URLSession's did-resume-at-offset); ``SessionEvent/progress`` has the offset as
        /// `completed` and the expected size as `total`.
        case downloadResumed
        /// A download's file was moved to its destination; ``SessionEvent/filePath`` says where.
        case downloadMovedFile
        /// A download's file could not be moved to its destination; ``SessionEvent/error`` says why
        /// (the task fails with it too, unlike AFNetworking, which only posts the notification).
        case downloadFailedToMoveFile
        /// An observed reachability monitor delivered a path
        /// (`SessionManager.observeReachability(of:)`); ``SessionEvent/networkPath`` is the path.
        case reachabilityChanged
        /// A WebSocket opened: ``SessionEvent/request`` is the handshake request as sent (after the
        /// adapters), ``SessionEvent/response`` the server's `101`.
        case webSocketOpened
        /// A WebSocket ended, or its handshake failed: ``SessionEvent/webSocketClose`` has the close
        /// code and reason once the connection had opened (1006 when it ended without a close
        /// frame), ``SessionEvent/error`` is set when it failed (a refused handshake, a protocol
        /// violation, the connection lost), with the handshake's response when there was one.
        case webSocketClosed

        /// AFNetworking's notification name for the kinds it posts, else `nil`.
        public var notificationName: String? {
            switch self {
            case .taskResumed: "com.alamofire.networking.task.resume"
            case .taskSuspended: "com.alamofire.networking.task.suspend"
            case .taskCompleted: "com.alamofire.networking.task.complete"
            case .sessionInvalidated: "com.alamofire.networking.session.invalidate"
            case .downloadMovedFile: "com.alamofire.networking.session.download.file-manager-succeed"
            case .downloadFailedToMoveFile: "com.alamofire.networking.session.download.file-manager-error"
            default: nil
            }
        }
    }

    /// What happened.
    public let kind: Kind
    /// The task it happened to, when any.
    public let taskIdentifier: Int?
    /// The request concerned, when any.
    public let request: HTTPRequest?
    /// The response concerned, when any.
    public let response: HTTPResponse?
    /// The progress, for body events.
    public let progress: TransferProgress?
    /// The metrics, for ``Kind/metricsCollected``.
    public let metrics: TransferMetrics?
    /// The error a task completed with, or the failure a retry answers.
    public let error: SessionError?
    /// The network path, for ``Kind/reachabilityChanged``.
    public let networkPath: NetworkPath?
    /// Where a download's file went, for ``Kind/downloadMovedFile`` (AFNetworking's asset path).
    public let filePath: String?
    /// Where the response came from, for ``Kind/responseReceived`` served from the cache and for
    /// ``Kind/taskCompleted`` in a session with a cache: see ``CacheDisposition``.
    public package(set) var cacheDisposition: CacheDisposition? = nil
    /// How a WebSocket ended, for ``Kind/webSocketClosed`` after it had opened.
    public let webSocketClose: WebSocketClose?
    /// The trust evaluation, for ``Kind/serverTrustEvaluated``.
    public var trustEvaluation: TrustEvaluationRecord? { metrics?.trustEvaluation }

    /// Creates an event: a session makes them, and so do the tests of an app's ``EventMonitor``.
    ///
    /// ```swift
    /// let event = SessionEvent(
    ///     .taskCompleted,
    ///     task: 1,
    ///     request: HTTPRequest(url: URL(string: "https://api.example.com/items")!),
    ///     error: .cancelled(URL(string: "https://api.example.com/items")!)
    /// )
    /// monitor.session(session, didReceive: event)
    /// ```
    /// - Parameters:
    ///   - kind: What happened.
    ///   - task: The task's identifier, for task events.
    ///   - request: The request involved.
    ///   - response: The response involved.
    ///   - progress: The progress, for progress events.
    ///   - metrics: The transfer's metrics (with the trust evaluation, for
    ///     ``Kind/serverTrustEvaluated``).
    ///   - error: The error, for a failed task.
    ///   - filePath: Where a download's file went, for ``Kind/downloadMovedFile``.
    ///   - networkPath: The network path, for ``Kind/reachabilityChanged``.
    ///   - cacheDisposition: Where the response came from, in a session with a cache.
    ///   - webSocketClose: How a WebSocket ended, for ``Kind/webSocketClosed``.
    public init(
        _ kind: Kind,
        task: Int? = nil,
        request: HTTPRequest? = nil,
        response: HTTPResponse? = nil,
        progress: TransferProgress? = nil,
        metrics: TransferMetrics? = nil,
        error: SessionError? = nil,
        filePath: String? = nil,
        networkPath: NetworkPath? = nil,
        cacheDisposition: CacheDisposition? = nil,
        webSocketClose: WebSocketClose? = nil
    ) {
        self.kind = kind
        taskIdentifier = task
        self.request = request
        self.response = response
        self.progress = progress
        self.metrics = metrics
        self.error = error
        self.filePath = filePath
        self.networkPath = networkPath
        self.cacheDisposition = cacheDisposition
        self.webSocketClose = webSocketClose
    }
}

/// Receives every event of the sessions it is given to, in order, on the session's event queue.
///
/// ```swift
/// struct Logger: EventMonitor {
///     func session(_ session: any HTTPSession, didReceive event: SessionEvent) {
///         print(event.kind, event.request?.url.absoluteString ?? "")
///     }
/// }
/// let session = SessionManager(transport: transport, eventMonitors: [Logger()])
/// ```
public protocol EventMonitor: Sendable {
    /// Called for each event, one at a time, in the order the events happened.
    ///
    /// - Parameters:
    ///   - session: The session.
    ///   - event: The event.
    func session(_ session: any HTTPSession, didReceive event: SessionEvent)
}
