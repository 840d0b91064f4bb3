#if canImport(Glibc)
    internal import Glibc
#endif

/// The streamed download's progress: a line at each quarter of the body, never a line redrawn in
/// place, because the demo's output is read in CI logs as often as on a terminal.
struct DemoProgress {
    private let total: Int64
    private let start = ContinuousClock.now
    private var quartersShown: Int64 = 0

    init(total: Int64) {
        self.total = max(total, 1)
    }

    mutating func update(completed: Int64) {
        let quarters = completed * 4 / total
        guard quarters > quartersShown else { return }
        quartersShown = quarters
        let elapsed = ContinuousClock.now - start
        var text =
            "  progress \(DemoUnits.tenths(Double(completed) * 100 / Double(total)))%  "
            + "\(DemoUnits.mebibytes(completed)) of \(DemoUnits.mebibytes(total))  "
            + DemoUnits.rate(completed, over: elapsed)
        let seconds = DemoUnits.seconds(elapsed)
        if total > completed, completed > 0, seconds > 0 {
            text += "  ETA \(Int((Double(total - completed) * seconds / Double(completed)).rounded(.up)))s"
        }
        print(text)
        // Each line as it happens, also when stdout is a pipe (ci/demo under ci/test).
        fflush(nil)
    }
}
