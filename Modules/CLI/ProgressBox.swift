internal import CourierLocking

/// A ``ProgressLine`` that the session's progress callbacks, which run on its completion queue, can
/// draw on.
final class ProgressBox: Sendable {
    private let line: Lock<ProgressLine>

    init(_ line: sending ProgressLine) {
        self.line = Lock(line)
    }

    func setBaseline(_ bytes: Int64) { line.withLock { $0.baseline = bytes } }
    func update(completed: Int64, total: Int64?) { line.withLock { $0.update(completed: completed, total: total) } }
    func finish(completed: Int64, total: Int64?) { line.withLock { $0.finish(completed: completed, total: total) } }
    func abandon() { line.withLock { $0.abandon() } }
}
