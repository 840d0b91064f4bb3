/// Writes a ``FormNode`` tree as form bytes, the way ``QueryWriter`` writes ``Parameters``: the field
/// is kept as already-escaped bytes on a stack, so no field string is ever built.
struct FormWriter: ~Copyable {
    let options: URLEncodedFormEncoder
    private(set) var output = EscapingByteBuffer(capacity: 256)
    private var prefix = EscapingByteBuffer(capacity: 64)
    private var wrotePair = false
    private let spaceAsPlus: Bool
    private let unescaped: ASCIIMask
    /// The unescaped key path, kept only for a custom array encoding, whose closure takes it.
    private var rawPath = ""
    private let tracksRawPath: Bool
    /// The brackets as written: escaped, unless the allowed characters include them.
    private let openBracket: StaticString
    private let closeBracket: StaticString

    init(options: URLEncodedFormEncoder) {
        self.options = options
        spaceAsPlus = options.spaceEncoding == .plusReplaced
        unescaped = options.allowedCharacters.mask
        if case .custom = options.arrayEncoding { tracksRawPath = true } else { tracksRawPath = false }
        openBracket = unescaped.contains(UInt8(ascii: "[")) ? "[" : "%5B"
        closeBracket = unescaped.contains(UInt8(ascii: "]")) ? "]" : "%5D"
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
        let rawBase = rawPath
        for (key, child) in entries {
            let suffix: String
            switch (nested, options.keyPathEncoding.kind) {
            case (false, _):
                suffix = key
                prefix.appendEscaped(key, spaceAsPlus: spaceAsPlus, unescaped: unescaped)
            case (true, .brackets):
                suffix = tracksRawPath ? "[\(key)]" : ""
                prefix.append(ascii: openBracket)
                prefix.appendEscaped(key, spaceAsPlus: spaceAsPlus, unescaped: unescaped)
                prefix.append(ascii: closeBracket)
            case (true, .custom(let closure)):
                suffix = closure(key)
                prefix.appendEscaped(suffix, spaceAsPlus: spaceAsPlus, unescaped: unescaped)
            }
            if tracksRawPath { rawPath = rawBase + suffix }
            write(child)
            prefix.truncate(to: base)
        }
        rawPath = rawBase
    }

    private mutating func write(_ node: FormNode) {
        switch node.content {
        case .unset:
            return
        case .scalar(let text):
            beginField()
            output.append(UInt8(ascii: "="))
            output.appendEscaped(text, spaceAsPlus: spaceAsPlus, unescaped: unescaped)
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
            case .custom(let closure):
                guard let text = closure() else { return }
                beginField()
                output.append(UInt8(ascii: "="))
                output.appendEscaped(text, spaceAsPlus: spaceAsPlus, unescaped: unescaped)
            }
        case .keyed:
            writeKeyed(node, nested: true)
        case .unkeyed:
            let base = prefix.count
            let rawBase = rawPath
            for (index, element) in node.elements.enumerated() {
                switch options.arrayEncoding {
                case .brackets:
                    prefix.append(ascii: openBracket)
                    prefix.append(ascii: closeBracket)
                case .noBrackets:
                    break
                case .indexInBrackets:
                    prefix.append(ascii: openBracket)
                    prefix.appendDecimal(index)
                    prefix.append(ascii: closeBracket)
                case .custom(let closure):
                    // The closure returns the whole path, so the escaped prefix is rebuilt from it.
                    rawPath = closure(rawBase, index)
                    prefix.truncate(to: 0)
                    prefix.appendEscaped(rawPath, spaceAsPlus: spaceAsPlus, unescaped: unescaped)
                }
                write(element)
                if tracksRawPath {
                    prefix.truncate(to: 0)
                    prefix.appendEscaped(rawBase, spaceAsPlus: spaceAsPlus, unescaped: unescaped)
                } else {
                    prefix.truncate(to: base)
                }
            }
            rawPath = rawBase
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
