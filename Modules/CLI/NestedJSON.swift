internal import CourierSerialization
internal import FoundationEssentials

/// The JSON body httpie 3 builds from data items: each item's key is a ``JSONPath`` and its value is
/// put there, creating the objects and arrays on the way.
///
/// As in httpie, a key given twice keeps its last value (`a=1 a=2` sends `{"a": "2"}`; the form
/// and query encodings send both), `[]` appends, an index past the end pads with `null`, a path
/// that starts with `[` makes the body a top-level array, and walking into a value of the wrong type
/// (`a=x a[b]=y`) is an error rather than a silent overwrite. Members keep the order in which they
/// were first given. A raw value (`name:=json`) is sent as typed unless a later path walks into it.
struct NestedJSON {
    /// A JSON value under construction.
    indirect enum Node: Equatable {
        case object([Member])
        case array([Node])
        case string(String)
        /// Validated JSON text, kept byte for byte.
        case raw(String)
        case null
    }

    struct Member: Equatable {
        var key: String
        var value: Node
    }

    private var root: Node?

    /// The paths given a value more than once, whose earlier values were dropped.
    private(set) var replacedPaths: [String] = []

    /// Puts `value` at the path of `key` (a data item's key as typed).
    mutating func set(_ key: String, to value: Node) throws(UsageError) {
        let path = try JSONPath(key)
        var replaced = false
        root = try Self.place(value, path: path, depth: 0, in: root, replaced: &replaced)
        if replaced { replacedPaths.append(path.described(upTo: path.steps.count)) }
    }

    /// The body: `{}` when nothing was set, an array when the paths started with `[`.
    var text: String {
        guard let root else { return "{}" }
        return Self.serialize(root)
    }

    private static func place(
        _ value: Node,
        path: JSONPath,
        depth: Int,
        in node: Node?,
        replaced: inout Bool
    ) throws(UsageError) -> Node {
        let step = path.steps[depth]
        let isLast = depth == path.steps.count - 1
        var current = try expanded(node ?? container(for: step))
        if current == .null { current = container(for: step) }
        switch (step, current) {
        case (.key(let name), .object(var members)):
            let existing = members.firstIndex { $0.key == name }
            let below = existing.map { members[$0].value }
            if isLast, below != nil { replaced = true }
            let child = isLast ? value : try place(value, path: path, depth: depth + 1, in: below, replaced: &replaced)
            if let existing {
                members[existing].value = child
            } else {
                members.append(Member(key: name, value: child))
            }
            return .object(members)
        case (.index(let index), .array(var elements)):
            if elements.count <= index { elements += Array(repeating: .null, count: index - elements.count + 1) }
            if isLast, elements[index] != .null { replaced = true }
            elements[index] =
                isLast
                ? value : try place(value, path: path, depth: depth + 1, in: elements[index], replaced: &replaced)
            return .array(elements)
        case (.append, .array(var elements)):
            elements.append(
                isLast ? value : try place(value, path: path, depth: depth + 1, in: nil, replaced: &replaced)
            )
            return .array(elements)
        default:
            let wanted = if case .key = step { "an object" } else { "an array" }
            let at = depth == 0 ? "the body" : path.described(upTo: depth)
            throw UsageError(
                message: "cannot set \(path.described(upTo: depth + 1)): \(at) is \(typeName(current)), "
                    + "and \(describe(step)) needs \(wanted)"
            )
        }
    }

    private static func container(for step: JSONPath.Step) -> Node {
        if case .key = step { .object([]) } else { .array([]) }
    }

    private static func describe(_ step: JSONPath.Step) -> String {
        switch step {
        case .key(let name): "the member \(name.debugDescription)"
        case .index(let index): "the index [\(index)]"
        case .append: "appending with []"
        }
    }

    private static func typeName(_ node: Node) -> String {
        switch node {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .null: "null"
        case .raw(let text):
            switch text.first {
            case "t", "f": "a boolean"
            case "\"": "a string"
            default: "a number"
            }
        }
    }

    /// A raw object or array, parsed so that a path can walk into it; other nodes as they are.
    private static func expanded(_ node: Node) throws(UsageError) -> Node {
        guard case .raw(let text) = node, let first = text.first, first == "[" || first == "{" || first == "n" else {
            return node
        }
        do {
            return convert(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))
        } catch {
            throw UsageError(message: "not JSON: \(text.debugDescription)")
        }
    }

    /// A parsed value as a node. The parser keeps no member order, so a raw object that a path walks
    /// into has its members sorted.
    private static func convert(_ value: JSONValue) -> Node {
        switch value {
        case .null: .null
        case .bool(let flag): .raw(flag ? "true" : "false")
        case .int(let number): .raw(String(number))
        case .double(let number): .raw(String(number))
        case .string(let text): .string(text)
        case .array(let elements): .array(elements.map(convert))
        case .object(let members):
            .object(
                members.keys.sorted().compactMap { key in members[key].map { Member(key: key, value: convert($0)) } }
            )
        }
    }

    private static func serialize(_ node: Node) -> String {
        switch node {
        case .object(let members):
            "{" + members.map { quoted($0.key) + ": " + serialize($0.value) }.joined(separator: ", ") + "}"
        case .array(let elements): "[" + elements.map(serialize).joined(separator: ", ") + "]"
        case .string(let text): quoted(text)
        case .raw(let text): text
        case .null: "null"
        }
    }

    /// A JSON string literal (RFC 8259 §7), as the JSON value's compact text writes it.
    static func quoted(_ text: String) -> String {
        JSONValue.string(text).description
    }
}
