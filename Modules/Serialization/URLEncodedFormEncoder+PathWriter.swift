/// Writes a ``FormPathTree`` as Alamofire 5 serializes its form tree.
///
/// Each pair is built as text: the unescaped key path (nested keys through the key path encoding,
/// elements through the array encoding), the key encoding applied to that whole path, then escaping.
/// With ``URLEncodedFormEncoder/alphabetizeKeyValuePairs`` every level's texts are sorted as Swift
/// strings, a nested value taking part as its `&`-joined text.
struct FormPathWriter {
    let options: URLEncodedFormEncoder

    func write(_ root: FormPathNode, typeName: String) throws(SerializationError) -> String {
        switch root.kind {
        case .object:
            return joined(root.entries.map { segment($0.node, path: $0.key) })
        case .leaf, .array:
            let kind = if case .array = root.kind { "an array" } else { "a single value" }
            throw .formEncodingFailed(
                "URLEncodedFormEncoder needs a keyed top-level value (a struct, class or [String: …] dictionary); "
                    + "\(typeName) encoded \(kind)."
            )
        }
    }

    private func segment(_ node: FormPathNode, path: String) -> String {
        switch node.kind {
        case .leaf(.text(let text)):
            return escape(options.keyEncoding.encode(path)) + "=" + escape(text)
        case .leaf(.bareKey):
            return escape(options.keyEncoding.encode(path))
        case .object:
            return joined(
                node.entries.map { segment($0.node, path: path + options.keyPathEncoding.suffix(for: $0.key)) }
            )
        case .array:
            return joined(
                node.elements.enumerated().map { index, element in
                    segment(element, path: options.arrayEncoding.path(path, index: index))
                }
            )
        }
    }

    private func joined(_ segments: [String]) -> String {
        (options.alphabetizeKeyValuePairs ? segments.sorted() : segments).joined(separator: "&")
    }

    private func escape(_ text: String) -> String {
        var buffer = EscapingByteBuffer(capacity: text.utf8.count * 3)
        buffer.appendEscaped(
            text,
            spaceAsPlus: options.spaceEncoding == .plusReplaced,
            unescaped: options.allowedCharacters.mask
        )
        return buffer.string
    }
}

extension URLEncodedFormEncoder.ArrayEncoding {
    /// The unescaped key path of element `index` under `path`.
    func path(_ path: String, index: Int) -> String {
        switch self {
        case .brackets: return path + "[]"
        case .noBrackets: return path
        case .indexInBrackets: return path + "[\(index)]"
        case .custom(let closure): return closure(path, index)
        }
    }
}
