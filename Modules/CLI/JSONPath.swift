/// The path in a JSON data item's key, as httpie 3 reads it: `a[b][0][]` is the key `a`, then the
/// member `b`, the element at index 0, and an element appended to an array.
///
/// A backslash makes `[`, `]` or `\` literal, and before a number in brackets makes it a member
/// name (`a[\1]` is the member `"1"`, `a[1]` the element at index 1). The grammar is httpie's
/// `nested_json` (docs: "Nested JSON"): a root (a name, `[N]` or `[]`) followed by any number of
/// `[name]`, `[N]` or `[]`.
struct JSONPath: Equatable {
    enum Step: Equatable {
        /// A member of an object.
        case key(String)
        /// The element at an index of an array (missing elements before it become `null`).
        case index(Int)
        /// A new element at the end of an array.
        case append
    }

    let steps: [Step]

    /// The characters a backslash keeps literal in a key; `RequestItem` keeps the backslash before
    /// them so that the path can tell `\[` from `[`.
    static let escapable: Set<Character> = ["[", "]", "\\"]

    private enum Token: Equatable {
        case open
        case close
        case text(String)
        case number(Int)
    }

    /// Parses `source`, a data item's key with its backslashes as typed.
    init(_ source: String) throws(UsageError) {
        let tokens = Self.tokenize(source)
        var position = 0
        func next() -> Token? {
            guard position < tokens.count else { return nil }
            defer { position += 1 }
            return tokens[position]
        }
        func failure(_ expected: String) -> UsageError {
            let found = position <= tokens.count && position > 0 ? " after \(Self.text(tokens[..<position]))" : ""
            return UsageError(
                message: "the JSON path \(source.debugDescription) is malformed: expected \(expected)\(found) "
                    + "(write [name], [N] or [], and \\[ for a literal bracket)"
            )
        }
        var steps: [Step] = []
        switch next() {
        case nil: steps.append(.key(""))
        case .text(let name): steps.append(.key(name))
        case .number(let number): steps.append(.key(String(number)))
        case .open:
            steps.append(try Self.bracketed(next, failure: failure, allowsName: false))
        case .close: throw failure("a name or '['")
        }
        while position < tokens.count {
            guard next() == .open else { throw failure("'['") }
            steps.append(try Self.bracketed(next, failure: failure, allowsName: true))
        }
        self.steps = steps
    }

    /// What follows a `[`: `name]`, `N]` or `]`.
    private static func bracketed(
        _ next: () -> Token?,
        failure: (String) -> UsageError,
        allowsName: Bool
    ) throws(UsageError) -> Step {
        let step: Step
        switch next() {
        case .close: return .append
        case .number(let number):
            guard number >= 0 else {
                throw UsageError(message: "negative array indexes are not supported in JSON paths (got [\(number)])")
            }
            step = .index(number)
        case .text(let name) where allowsName: step = .key(name)
        default: throw failure(allowsName ? "a name, a number or ']'" : "a number or ']'")
        }
        guard next() == .close else { throw failure("']'") }
        return step
    }

    /// Splits the key into brackets and the text between them; unescaped text that is a whole
    /// number is a number.
    private static func tokenize(_ source: String) -> [Token] {
        var tokens: [Token] = []
        var buffer = ""
        var escaped = false
        var hasText = false
        func flush() {
            guard hasText else { return }
            if !escaped, let number = Int(buffer) {
                tokens.append(.number(number))
            } else {
                tokens.append(.text(buffer))
            }
            buffer = ""
            escaped = false
            hasText = false
        }
        var characters = Substring(source)
        while let character = characters.popFirst() {
            switch character {
            case "\\":
                escaped = true
                hasText = true
                if let literal = characters.popFirst() { buffer.append(literal) }
            case "[":
                flush()
                tokens.append(.open)
            case "]":
                flush()
                tokens.append(.close)
            default:
                hasText = true
                buffer.append(character)
            }
        }
        flush()
        return tokens
    }

    private static func text(_ tokens: ArraySlice<Token>) -> String {
        tokens.map { token in
            switch token {
            case .open: "["
            case .close: "]"
            case .text(let text): text
            case .number(let number): String(number)
            }
        }.joined().debugDescription
    }

    /// The key with its backslashes removed, for the items that are not JSON (headers, query
    /// parameters, form fields), where brackets mean nothing.
    static func unescaped(_ key: String) -> String {
        var result = ""
        var characters = Substring(key)
        while let character = characters.popFirst() {
            if character == "\\", let literal = characters.popFirst() {
                result.append(literal)
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The path as httpie would write it, for messages.
    func described(upTo count: Int) -> String {
        steps.prefix(count).enumerated().map { offset, step in
            switch step {
            case .key(let name): offset == 0 ? name : "[\(name)]"
            case .index(let index): "[\(index)]"
            case .append: "[]"
            }
        }.joined()
    }
}
