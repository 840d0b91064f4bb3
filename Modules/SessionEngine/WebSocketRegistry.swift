internal import CourierLocking
internal import CourierWebSocket

/// The open WebSockets of a session, held weakly: a socket the app drops is the engine's to close,
/// and the session must not keep it alive. An invalidation that cancels tasks closes the rest with
/// 1001 (RFC 6455 §7.4.1, "going away").
final class WebSocketRegistry: Sendable {
    private struct Entry: Sendable {
        weak var socket: SessionWebSocket?
    }

    private struct State: Sendable {
        var entries: [Int: Entry] = [:]
        /// Set by ``closeAll()`` until a reset: a handshake that finishes after it is closed at once.
        var closed = false
    }

    private let state = Lock(State())

    /// Adds an open socket; `false` when the registry was closed (the caller closes the socket).
    func register(_ socket: SessionWebSocket) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.entries[socket.identifier] = Entry(socket: socket)
            return true
        }
    }

    /// Forgets a socket that ended.
    func remove(_ identifier: Int) {
        _ = state.withLock { $0.entries.removeValue(forKey: identifier) }
    }

    /// The sockets still open and referenced.
    var openSockets: [SessionWebSocket] {
        state.withLock { state in state.entries.values.compactMap(\.socket) }
    }

    /// Closes every open socket with 1001 and takes no more; returns when every closing handshake
    /// has finished or timed out.
    func closeAll() async {
        let sockets = state.withLock { state -> [SessionWebSocket] in
            state.closed = true
            defer { state.entries = [:] }
            return state.entries.values.compactMap(\.socket)
        }
        await withTaskGroup(of: Void.self) { group in
            for socket in sockets {
                group.addTask { await socket.close(code: .goingAway, reason: "the session is shutting down") }
            }
        }
    }

    /// Takes sockets again (after a reset).
    func reopen() {
        state.withLock { $0.closed = false }
    }
}
