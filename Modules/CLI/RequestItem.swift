/// One of httpie's request items: the words after the URL that add headers, query parameters, body
/// fields and files.
///
/// | item | meaning |
/// | --- | --- |
/// | `Name:value` | a header (`Name:` removes a default header, `Name;` sends it empty) |
/// | `name==value` | a query parameter |
/// | `name=value` | a JSON string field, or a form field with `--form`/`--multipart` |
/// | `name:=json` | a raw JSON field (`42`, `true`, `[1,2]`, `{"a":1}`) |
/// | `name=@file`, `name:=@file` | the same, read from a file |
/// | `name@path` | a file, sent as a multipart part |
///
/// The separator is the first one in the word (the longest at that position, so `==` beats `=`);
/// a backslash makes the next character literal: `a\=b=c` is the field `a=b` with the value `c`.
enum RequestItem: Equatable {
    case header(name: String, value: String)
    case removedHeader(name: String)
    case query(name: String, value: String)
    case field(name: String, value: String)
    case fieldFromFile(name: String, path: String)
    case json(name: String, raw: String)
    case jsonFromFile(name: String, path: String)
    case file(name: String, path: String)

    /// Whether the item puts something in the body.
    var isData: Bool {
        switch self {
        case .header, .removedHeader, .query: false
        case .field, .fieldFromFile, .json, .jsonFromFile, .file: true
        }
    }

    /// Longest first, so that at one position `:=@` wins over `:=` and `:`.
    private static let separators = [":=@", "=@", "==", ":=", "=", "@", ":", ";"]

    /// Parses one word; `nil` when it has no separator (so it is not an item).
    init?(_ word: String) {
        var key = ""
        var characters = Substring(word)
        while let first = characters.first {
            if first == "\\", characters.count > 1 {
                key.append(characters[characters.index(after: characters.startIndex)])
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
        switch separator {
        case ":": return value.isEmpty ? .removedHeader(name: key) : .header(name: key, value: value)
        case ";": return value.isEmpty ? .header(name: key, value: "") : nil
        case "==": return .query(name: key, value: value)
        case "=": return .field(name: key, value: value)
        case "=@": return .fieldFromFile(name: key, path: value)
        case ":=": return .json(name: key, raw: value)
        case ":=@": return .jsonFromFile(name: key, path: value)
        default: return .file(name: key, path: value)
        }
    }
}
