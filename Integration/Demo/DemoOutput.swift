internal import FoundationEssentials

/// Headings and byte previews for the demo's output.
enum DemoOutput {
    static func section(_ title: String) {
        print("")
        print("== \(title)")
    }

    static func line(_ label: String, _ value: String) {
        let padded = label.count < 26 ? label + String(repeating: " ", count: 26 - label.count) : label
        print("  \(padded)\(value)")
    }

    /// Shows bytes as text with CR and LF made visible and non-printable bytes as `\xNN`.
    static func preview(_ bytes: some Sequence<UInt8>, limit: Int = 600) -> String {
        var text = ""
        var count = 0
        for byte in bytes {
            if count == limit {
                text += "…"
                break
            }
            count += 1
            switch byte {
            case 0x0D: text += "\\r"
            case 0x0A: text += "\\n\n    "
            case 0x20...0x7E: text.append(Character(Unicode.Scalar(byte)))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return text
    }
}
