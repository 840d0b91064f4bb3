/// The words `courier` reserves for commands of its own, checked before the `[METHOD] URL` grammar.
///
/// Each command registers its word, a one-line summary for `--help` and a function that runs it with
/// the words after its name and returns the exit status. Modules that add commands (`image`,
/// `reachability`) register them in ``CourierCommand/registry``; nothing else needs to change.
///
/// A word that is an HTTP method cannot be registered: `courier get URL` must stay a `GET`.
struct CommandRegistry {
    /// One registered command.
    struct Command {
        let word: String
        let summary: String
        let run: ([String]) async -> Int32
    }

    private(set) var commands: [Command] = []

    /// Adds a command. A word registered twice, or one that names an HTTP method, is a programming
    /// error caught the first time `courier` runs.
    mutating func register(_ word: String, summary: String, run: @escaping ([String]) async -> Int32) {
        precondition(!RequestGrammar.knownMethods.contains(word.uppercased()), "\(word) is an HTTP method")
        precondition(command(word) == nil, "\(word) is registered twice")
        commands.append(Command(word: word, summary: summary, run: run))
    }

    /// The command a word names, if it is reserved.
    func command(_ word: String) -> Command? {
        commands.first { $0.word == word }
    }

    /// The `--help` lines: each word and its summary, aligned.
    var summaryLines: [String] {
        let width = (commands.map(\.word.count).max() ?? 0) + 3
        return commands.map { "  " + $0.word + String(repeating: " ", count: width - $0.word.count) + $0.summary }
    }
}
