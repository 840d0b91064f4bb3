/// The demo's sizes in mebibytes and its times in milliseconds, to one decimal. Every size it shows
/// is a download's, a mebibyte or more, so one unit reads well.
enum DemoUnits {
    /// `1_363_149` → `"1.3 MiB"`.
    static func mebibytes(_ bytes: Int64) -> String {
        tenths(Double(bytes) / Double(1 << 20)) + " MiB"
    }

    /// Mebibytes per second over `elapsed`.
    static func rate(_ bytes: Int64, over elapsed: Duration) -> String {
        let seconds = seconds(elapsed)
        guard seconds > 0 else { return "-" }
        return tenths(Double(bytes) / Double(1 << 20) / seconds) + " MiB/s"
    }

    /// `"12.3 ms"`.
    static func milliseconds(_ duration: Duration) -> String {
        tenths(seconds(duration) * 1000) + " ms"
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// A value that is never negative, rounded to one decimal: FoundationEssentials has no number
    /// formatter and no `String(format:)`.
    static func tenths(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
