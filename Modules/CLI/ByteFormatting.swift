/// Human-readable sizes, rates and durations for progress lines and metrics.
enum ByteFormatting {
    /// `1536` → `"1.5 KiB"`; binary units, as the sizes of the test files are.
    static func size(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : "\(oneDecimal(value)) \(units[unit])"
    }

    /// Bytes per second over `elapsed`.
    static func rate(_ bytes: Int64, over elapsed: Duration) -> String {
        let seconds = Self.seconds(elapsed)
        guard seconds > 0 else { return "-" }
        return size(Int64(Double(bytes) / seconds)) + "/s"
    }

    /// `"12.3 ms"`.
    static func milliseconds(_ duration: Duration) -> String {
        oneDecimal(seconds(duration) * 1000) + " ms"
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// One decimal, rounded: `oneDecimal(2.25)` → `"2.3"`. Written out because FoundationEssentials
    /// has no number formatter and `String(format:)`.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
