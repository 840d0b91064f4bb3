/// A progress line for a running transfer: bytes, percentage, rate and, while a known total is not
/// reached, the time left.
///
/// It redraws one line in place (`\r`, at most ten times a second), which only a terminal shows
/// well: the commands draw it there, or where `--progress` asks for it.
final class ProgressLine {
    enum Style {
        /// Redraw in place; for terminals.
        case live
        /// Print nothing.
        case off
    }

    private let style: Style
    private let label: String
    private let write: (String) -> Void
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?
    private var drewLive = false
    /// Bytes that were already there when the transfer started (a resumed download): they count
    /// towards the percentage but not the rate.
    var baseline: Int64 = 0

    /// - Parameter write: Where the text goes (stderr, so that the body on stdout stays clean).
    init(style: Style, label: String, write: @escaping (String) -> Void) {
        self.style = style
        self.label = label
        self.write = write
        start = clock.now
    }

    func update(completed: Int64, total: Int64?) {
        switch style {
        case .off:
            return
        case .live:
            let now = clock.now
            if let lastDraw, now - lastDraw < .milliseconds(100) { return }
            lastDraw = now
            drewLive = true
            write("\r\u{1B}[K" + text(completed: completed, total: total))
        }
    }

    /// Draws the final state and ends the line.
    func finish(completed: Int64, total: Int64?) {
        switch style {
        case .off:
            return
        case .live:
            write("\r\u{1B}[K" + text(completed: completed, total: total) + "\n")
        }
    }

    /// Ends a live line without redrawing it, before an error message.
    func abandon() {
        if style == .live && drewLive { write("\n") }
    }

    private func text(completed: Int64, total: Int64?) -> String {
        let elapsed = clock.now - start
        var text = "  \(label) "
        if let total, total > 0 {
            let percent = ByteFormatting.oneDecimal(Double(completed) * 100 / Double(total))
            text += "\(percent)%  \(ByteFormatting.size(completed)) of \(ByteFormatting.size(total))"
        } else {
            text += ByteFormatting.size(completed)
        }
        text += "  \(ByteFormatting.rate(completed - baseline, over: elapsed))"
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let moved = completed - baseline
        if let total, total > completed, moved > 0, seconds > 0 {
            let remaining = Int((Double(total - completed) * seconds / Double(moved)).rounded(.up))
            text += remaining >= 60 ? "  ETA \(remaining / 60)m\(remaining % 60)s" : "  ETA \(remaining)s"
        }
        return text
    }
}
