/// One of httpie's request items: the words after the URL that add headers, query parameters, body
/// fields and files.
///
/// | item | meaning |
/// | --- | --- |
/// | `Name:value` | a header (`Name:` removes a default header, `Name;` sends it empty) |
/// | `Name:@file` | a header whose value is read from a file |
/// | `name==value`, `name==@file` | a query parameter (its value from a file) |
/// | `name=value` | a JSON string field, or a form field with `--form`/`--multipart` |
/// | `name:=json` | a raw JSON field (`42`, `true`, `[1,2]`, `{"a":1}`) |
/// | `name=@file`, `name:=@file` | the same, read from a file |
/// | `name@path`, `name@path;type=MIME` | a file, sent as a multipart part (with that type) |
///
/// The separator is the first one in the word (the longest at that position, so `==` beats `=`);
/// a backslash makes the next character literal: `a\=b=c` is the field `a=b` with the value `c`.
/// A data item's key is a ``JSONPath`` (`user[name]`, `tags[]`), so the backslash stays before `[`,
/// `]`, `\\` and digits in it, for the path to read; other items' names lose it.
enum RequestItem: Equatable {
    case header(name: String, value: String)
    case headerFromFile(name: String, path: String)
    case removedHeader(name: String)
    case query(name: String, value: String)
    case queryFromFile(name: String, path: String)
    case field(name: String, value: String)
    case fieldFromFile(name: String, path: String)
    case json(name: String, raw: String)
    case jsonFromFile(name: String, path: String)
    case file(name: String, path: String, mimeType: String?)

    /// Whether the item puts something in the body.
    var isData: Bool {
        switch self {
        case .header, .headerFromFile, .removedHeader, .query, .queryFromFile: false
        case .field, .fieldFromFile, .json, .jsonFromFile, .file: true
        }
    }

    /// Whether the item is a file sent as a multipart part.
    var isFile: Bool {
        if case .file = self { true } else { false }
    }

    /// Longest first, so that at one position `:=@` wins over `:=` and `:`.
    private static let separators = [":=@", "==@", "=@", "==", ":=", ":@", "=", "@", ":", ";"]

    /// httpie's marker of a file part's media type: `photo@cat.jpg;type=image/png`.
    private static let typeMarker = ";type="

    /// Parses one word; `nil` when it has no separator (so it is not an item).
    init?(_ word: String) {
        var key = ""
        var characters = Substring(word)
        while let first = characters.first {
            if first == "\\", characters.count > 1 {
                let literal = characters[characters.index(after: characters.startIndex)]
                if JSONPath.escapable.contains(literal) || literal.isWholeNumber { key.append("\\") }
                key.append(literal)
                characters = characters.dropFirst(2)
                continue
            }
            if let separator = Self.separators.first(where: { characters.hasPrefix($0) }) {
                let value = String(characters.dropFirst(separator.count))
                guard let item = Self.make(key: key, separator: separator, value: value) else { return nil }
                self = item
                return
            }
            key.append(first)
            characters = characters.dropFirst()
        }
        return nil
    }

    private static func make(key: String, separator: String, value: String) -> RequestItem? {
        guard !key.isEmpty else { return nil }
        let name = JSONPath.unescaped(key)
        switch separator {
        case ":=@": return .jsonFromFile(name: key, path: value)
        case ":=": return .json(name: key, raw: value)
        case "=@": return .fieldFromFile(name: key, path: value)
        case "=": return .field(name: key, value: value)
        case ":": return value.isEmpty ? .removedHeader(name: name) : .header(name: name, value: value)
        case ":@": return .headerFromFile(name: name, path: value)
        case ";": return value.isEmpty ? .header(name: name, value: "") : nil
        case "==": return .query(name: name, value: value)
        case "==@": return .queryFromFile(name: name, path: value)
        default:
            guard let marker = value.firstRange(of: typeMarker) else {
                return .file(name: name, path: value, mimeType: nil)
            }
            let mimeType = String(value[marker.upperBound...])
            return .file(
                name: name,
                path: String(value[..<marker.lowerBound]),
                mimeType: mimeType.isEmpty ? nil : mimeType
            )
        }
    }
}
