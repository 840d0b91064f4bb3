internal import FoundationEssentials

/// A guard in front of `JSONDecoder` against input that nests too deeply.
///
/// FoundationEssentials' JSON scanner rejects nesting deeper than 512 levels, but when the opening
/// bracket that crosses the limit is the last byte of the input it traps instead of throwing
/// (513 `[` and nothing else crash the process). A response body is untrusted, so the depth is
/// checked here first, in one pass that skips string contents, and anything deeper than the
/// scanner's own limit is refused with a typed error. Valid input is unaffected: the scanner would
/// refuse the same documents.
enum JSONNestingLimit {
    /// The JSON scanner's limit.
    static let maximumDepth = 512

    /// Why `data` nests too deeply, or `nil` when it does not.
    static func violation(in data: Data) -> String? {
        violationOffset(in: data).map(reason(atOffset:))
    }

    /// The offset of the opening bracket that crosses the limit, or `nil` when none does.
    static func violationOffset(in data: Data) -> Int? {
        // Each level opens with a byte of its own, so a body no longer than the limit cannot pass it:
        // a short response needs no scan.
        guard data.count > maximumDepth else { return nil }
        return data.withUnsafeBytes { bytes in
            let quote = UInt8(ascii: "\"")
            let backslash = UInt8(ascii: "\\")
            var depth = 0
            var index = 0
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    // A string's bytes matter only for where it ends: skip them in a tight loop, and
                    // the byte after each backslash with them.
                    index += 1
                    while index < bytes.count, bytes[index] != quote {
                        index += bytes[index] == backslash ? 2 : 1
                    }
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > maximumDepth { return index }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth = max(depth - 1, 0)
                default:
                    break
                }
                index += 1
            }
            return nil
        }
    }

    static func reason(atOffset offset: Int) -> String {
        "Too many nested arrays or objects: more than \(maximumDepth) levels at byte offset \(offset)."
    }
}
