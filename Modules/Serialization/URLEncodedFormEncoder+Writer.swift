/// Writes a ``FormNode`` tree as form bytes, the way ``QueryWriter`` writes ``Parameters``: the field
/// is kept as already-escaped bytes on a stack, so no field string is ever built.
struct FormWriter {
    let options: URLEncodedFormEncoder
    private(set) var output: [UInt8] = []
    private var prefix: [UInt8] = []
    private var wrotePair = false
    private let spaceAsPlus: Bool

    init(options: URLEncodedFormEncoder) {
        self.options = options
        spaceAsPlus = options.spaceEncoding == .plusReplaced
        output.reserveCapacity(256)
        prefix.reserveCapacity(64)
    }

    private static let openBracket: [UInt8] = Array("%5B".utf8)
    private static let closeBracket: [UInt8] = Array("%5D".utf8)

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
        var keys = node.keys
        if options.alphabetizeKeyValuePairs, keys.count > 1 {
            keys.sort(by: QueryWriter.utf16Precedes)
        }
        let base = prefix.count
        for key in keys {
            guard let child = node.children[key] else { continue }
            if nested { prefix.append(contentsOf: Self.openBracket) }
            escape(key, into: &prefix)
            if nested { prefix.append(contentsOf: Self.closeBracket) }
            write(child)
            prefix.removeSubrange(base...)
        }
    }

    private mutating func write(_ node: FormNode) {
        switch node.content {
        case .unset:
            return
        case .scalar(let text):
            beginField()
            output.append(UInt8(ascii: "="))
            escape(text, into: &output)
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
                output.append(contentsOf: "=null".utf8)
            }
        case .keyed:
            writeKeyed(node, nested: true)
        case .unkeyed:
            let base = prefix.count
            for (index, element) in node.elements.enumerated() {
                switch options.arrayEncoding {
                case .brackets:
                    prefix.append(contentsOf: Self.openBracket)
                    prefix.append(contentsOf: Self.closeBracket)
                case .noBrackets:
                    break
                case .indexInBrackets:
                    prefix.append(contentsOf: Self.openBracket)
                    QueryWriter.writeDecimal(index, into: &prefix)
                    prefix.append(contentsOf: Self.closeBracket)
                }
                write(element)
                prefix.removeSubrange(base...)
            }
        }
    }

    /// Writes the `&` separator (unless first) and the escaped field. A pair can be empty (a null
    /// under an empty key), so "first" is tracked rather than read off an empty output.
    private mutating func beginField() {
        if wrotePair { output.append(UInt8(ascii: "&")) }
        wrotePair = true
        output.append(contentsOf: prefix)
    }

    private func escape(_ string: String, into buffer: inout [UInt8]) {
        var string = string
        let spaceAsPlus = spaceAsPlus
        string.withUTF8 { PercentEscaping.escape($0, into: &buffer, spaceAsPlus: spaceAsPlus) }
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
