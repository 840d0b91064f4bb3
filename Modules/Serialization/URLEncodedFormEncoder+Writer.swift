/// Writes a ``FormNode`` tree as form bytes, the way ``QueryWriter`` writes ``Parameters``: the field
/// is kept as already-escaped bytes on a stack, so no field string is ever built.
struct FormWriter: ~Copyable {
    let options: URLEncodedFormEncoder
    private(set) var output = EscapingByteBuffer(capacity: 256)
    private var prefix = EscapingByteBuffer(capacity: 64)
    private var wrotePair = false
    private let spaceAsPlus: Bool

    init(options: URLEncodedFormEncoder) {
        self.options = options
        spaceAsPlus = options.spaceEncoding == .plusReplaced
    }

    /// Writes the root, which must be keyed (an untouched root is an empty form).
    mutating func writeRoot(_ root: FormNode, typeName: String) throws(SerializationError) {
        switch root.content {
        case .keyed: writeKeyed(root, nested: false)
        case .unset: return
        case .null, .scalar, .unkeyed:
            throw .formEncodingFailed(
                "URLEncodedFormEncoder needs a keyed top-level value (a struct, class or [String: …] dictionary); "
                    + "\(typeName) encoded a \(root.content.kindName)."
            )
        }
    }

    private mutating func writeKeyed(_ node: FormNode, nested: Bool) {
        var entries = node.entries
        if options.alphabetizeKeyValuePairs, entries.count > 1 {
            entries.sort { QueryWriter.utf16Precedes($0.key, $1.key) }
        }
        let base = prefix.count
        for (key, child) in entries {
            if nested { prefix.append(ascii: "%5B") }
            prefix.appendEscaped(key, spaceAsPlus: spaceAsPlus)
            if nested { prefix.append(ascii: "%5D") }
            write(child)
            prefix.truncate(to: base)
        }
    }

    private mutating func write(_ node: FormNode) {
        switch node.content {
        case .unset:
            return
        case .scalar(let text):
            beginField()
            output.append(UInt8(ascii: "="))
            output.appendEscaped(text, spaceAsPlus: spaceAsPlus)
        case .null:
            switch options.nilEncoding {
            case .dropKey:
                return
            case .dropValue:
                beginField()
            case .emptyValue:
                beginField()
                output.append(UInt8(ascii: "="))
            case .null:
                beginField()
                output.append(ascii: "=null")
            }
        case .keyed:
            writeKeyed(node, nested: true)
        case .unkeyed:
            let base = prefix.count
            for (index, element) in node.elements.enumerated() {
                switch options.arrayEncoding {
                case .brackets:
                    prefix.append(ascii: "%5B%5D")
                case .noBrackets:
                    break
                case .indexInBrackets:
                    prefix.append(ascii: "%5B")
                    prefix.appendDecimal(index)
                    prefix.append(ascii: "%5D")
                }
                write(element)
                prefix.truncate(to: base)
            }
        }
    }

    /// Writes the `&` separator (unless first) and the escaped field. A pair can be empty (a null
    /// under an empty key), so "first" is tracked rather than read off an empty output.
    private mutating func beginField() {
        if wrotePair { output.append(UInt8(ascii: "&")) }
        wrotePair = true
        output.append(prefix)
    }
}

extension FormNode.Content {
    /// A word for error messages.
    var kindName: String {
        switch self {
        case .unset: return "nothing"
        case .null: return "nil"
        case .scalar: return "single value"
        case .keyed: return "keyed value"
        case .unkeyed: return "array"
        }
    }
}
