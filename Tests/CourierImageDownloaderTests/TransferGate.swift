import CourierLocking

/// Holds transfers at the server until the test releases them, and lets the test wait for a
/// number of them to arrive: the state to wait for, never a sleep.
final class TransferGate: Sendable {
    private struct State {
        var arrived: [String] = []
        var released: Set<String> = []
        var releasedAll = false
        var parked: [(url: String, continuation: CheckedContinuation<Void, Never>)] = []
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    /// The URLs that arrived, in order.
    var arrived: [String] { state.withLock { $0.arrived } }

    /// Records the arrival of `url` and returns once it is released (or the transfer is cancelled).
    func pass(_ url: String) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let (go, waiters) = state.withLock { state in
                    state.arrived.append(url)
                    let count = state.arrived.count
                    let ready = state.arrivalWaiters.filter { $0.count <= count }.map(\.continuation)
                    state.arrivalWaiters.removeAll { $0.count <= count }
                    if state.releasedAll || state.released.contains(url) { return (true, ready) }
                    state.parked.append((url, continuation))
                    return (false, ready)
                }
                for waiter in waiters { waiter.resume() }
                if go { continuation.resume() }
            }
        } onCancel: {
            release(url)
        }
    }

    /// Lets every transfer of `url`, parked or to come, through.
    func release(_ url: String) {
        let parked = state.withLock { state in
            state.released.insert(url)
            let parked = state.parked.filter { $0.url == url }.map(\.continuation)
            state.parked.removeAll { $0.url == url }
            return parked
        }
        for continuation in parked { continuation.resume() }
    }

    /// Lets everything through from now on.
    func releaseAll() {
        let parked = state.withLock { state in
            state.releasedAll = true
            defer { state.parked = [] }
            return state.parked.map(\.continuation)
        }
        for continuation in parked { continuation.resume() }
    }

    /// Returns once `count` transfers have arrived in all.
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.arrived.count >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
