internal import CourierLocking
internal import CourierWebSocket
internal import Dispatch

#if canImport(Glibc)
    internal import Glibc
#endif

/// Ctrl-C during `courier ws`: the first one closes the WebSocket with 1001 (going away), as
/// RFC 6455 §7.4.1 names an endpoint's departure, and lets the closing handshake finish; a second
/// one ends the process at once.
final class WebSocketInterruption {
    /// The shell's status for a process ended by SIGINT (128 + 2).
    static let exitStatus: Int32 = 130

    /// Whether Ctrl-C was pressed, shared with the signal handler.
    private final class Flag: Sendable {
        let raised = Lock(false)
    }

    private let source: any DispatchSourceSignal
    private let flag = Flag()

    /// Starts watching for SIGINT until ``stop()``.
    /// - Parameter connection: The connection to close on the first Ctrl-C.
    init(closing connection: any WebSocketConnection) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [flag] in
            let first = flag.raised.withLock { raised in
                defer { raised = true }
                return !raised
            }
            guard first else { exit(Self.exitStatus) }
            Task { await connection.close(code: .goingAway, reason: "") }
        }
        source.resume()
    }

    /// Whether Ctrl-C was pressed.
    var happened: Bool { flag.raised.withLock { $0 } }

    /// Stops watching; SIGINT ends the process again.
    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
