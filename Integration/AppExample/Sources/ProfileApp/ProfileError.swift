import CourierSessionCore

/// What the app shows when a call fails; the client maps the session's errors to these.
public enum ProfileError: Error, Equatable {
    /// The token was refused (401).
    case signedOut
    /// The server answered with another status outside 200–299.
    case server(status: Int)
    /// The answer was not a profile.
    case malformedResponse
    /// No complete answer: the network failed, after the retries.
    case offline
    /// Anything else (a redirect loop, a cancelled call), with the session's description.
    case failed(String)

    init(_ error: SessionError) {
        self =
            switch (error.kind, error.response?.status.code) {
            case (.serialization, 401?): .signedOut
            case (.serialization, let status?) where !(200..<300).contains(status): .server(status: status)
            case (.serialization, _): .malformedResponse
            case (.transport, _): .offline
            default: .failed(error.description)
            }
    }
}
