/// A command line that could not be understood: `courier` prints the message and the usage text and
/// exits with status 1, as httpie does (its 2 means a timeout).
struct UsageError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// What a command accepts: flags without values, options with one value, and how many positionals.
///
/// Long names only (`--output`), plus a few one-letter aliases curl users type by habit (`-H`, `-o`).
/// `--name=value` and `--name value` both work; `--` ends the options.
struct ArgumentSpecification {
    var flags: Set<String> = []
    var options: Set<String> = []
    var aliases: [String: String] = [:]
    var positionals: [String] = []
    /// Whether any number of positionals is accepted (the request grammar sorts them out itself).
    var variadicPositionals = false
}

/// The arguments of one command after parsing.
struct ParsedArguments {
    /// One flag or option as it appeared, so that a later one can override an earlier one.
    struct Occurrence {
        let name: String
        let value: String?
    }

    private(set) var positionals: [String] = []
    private(set) var occurrences: [Occurrence] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Whether `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }

    /// The last value of `--name`, when given: a repeated single-valued option means its last value,
    /// as in curl.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option, in order.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// Parses `arguments` (the words after the command name) against `specification`.
    static func parse(
        _ arguments: [String],
        _ specification: ArgumentSpecification
    ) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            name = specification.aliases[name] ?? name
            if specification.flags.contains(name) {
                guard inlineValue == nil else { throw UsageError(message: "\(name) takes no value") }
                parsed.flags.insert(name)
                parsed.occurrences.append(Occurrence(name: name, value: nil))
            } else if specification.options.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError(message: "\(name) needs a value")
                }
                parsed.values[name, default: []].append(value)
                parsed.occurrences.append(Occurrence(name: name, value: value))
            } else {
                throw UsageError(message: "unknown option \(word)")
            }
        }
        guard specification.variadicPositionals || parsed.positionals.count == specification.positionals.count
        else {
            let expected = specification.positionals.joined(separator: " ")
            if parsed.positionals.count < specification.positionals.count {
                throw UsageError(message: "missing \(expected)")
            }
            throw UsageError(message: "unexpected argument \(parsed.positionals[specification.positionals.count])")
        }
        return parsed
    }
}
