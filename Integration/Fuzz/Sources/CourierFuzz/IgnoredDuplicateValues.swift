import FoundationEssentials

/// Where the values of repeated keys lie in a JSON text that `JSONDecoder` accepted.
///
/// `JSONDecoder` keeps the first of duplicate keys and never decodes the others' values, so a
/// string in one of them that RFC 8259 forbids (a raw control character, a bad escape, invalid
/// UTF-8) or a malformed or out-of-range number goes unnoticed. Courier's parser reads every value and refuses
/// such text; the differential target allows exactly that disagreement, at exactly those bytes.
enum IgnoredDuplicateValues {
    private struct Frame {
        let isObject: Bool
        var keys: Set<String> = []
        var expectingKey: Bool
        var duplicateValueStart: Int?
    }

    /// The byte ranges of the values of every key that repeats an earlier key of its object, each
    /// with the byte that ends it.
    static func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var stack: [Frame] = []
        var index = 0
        func closeDuplicateValue(at end: Int) {
            guard let start = stack.last?.duplicateValueStart else { return }
            // The byte that ends the value too: a malformed number (`2.`) is found there.
            ranges.append(start..<end + 1)
            stack[stack.count - 1].duplicateValueStart = nil
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
                guard let top = stack.last, top.isObject, top.expectingKey else { continue }
                let raw = Data(bytes[start..<min(index, bytes.count)])
                let key = (try? JSONDecoder().decode(String.self, from: raw)) ?? String(decoding: raw, as: UTF8.self)
                let isDuplicate = !stack[stack.count - 1].keys.insert(key).inserted
                stack[stack.count - 1].expectingKey = false
                if isDuplicate { stack[stack.count - 1].duplicateValueStart = index }
                continue
            case UInt8(ascii: "{"):
                stack.append(Frame(isObject: true, expectingKey: true))
            case UInt8(ascii: "["):
                stack.append(Frame(isObject: false, expectingKey: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                closeDuplicateValue(at: index)
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                closeDuplicateValue(at: index)
                if let top = stack.last, top.isObject { stack[stack.count - 1].expectingKey = true }
            default:
                break
            }
            index += 1
        }
        return ranges
    }
}
