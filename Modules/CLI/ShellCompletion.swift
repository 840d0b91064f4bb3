/// `courier --completion bash|zsh`: a completion script for the shell, printed to be sourced
/// (`source <(courier --completion bash)`, or saved where the shell looks for completions).
///
/// It completes the options, the methods, and the reserved words in first position; the values
/// of `--auth-type`, `--pretty`, `--verify` and `--ocsp`; and file names after the options that
/// take a file.
enum ShellCompletion {
    static let options = [
        "--json", "--form", "--multipart", "--ignore-stdin", "--offline", "--download", "--continue", "--follow",
        "--check-status", "--verbose", "--debug", "--quiet", "--headers", "--body", "--print", "--pretty", "--output",
        "--timeout", "--connect-timeout", "--max-redirects", "--retries", "--proxy", "--no-proxy", "--cacert",
        "--verify", "--header", "--auth", "--auth-type", "--ignore-netrc", "--pin-key", "--pin-cert", "--crlfile",
        "--ocsp", "--cert", "--cert-key", "--cert-key-pass", "--insecure", "--raw", "--compress", "--chunked", "--all",
        "--path-as-is", "--session", "--session-read-only",
        "--http1.1", "--http2",
        "--stream", "--wait-for-network", "--progress", "--metrics", "--report-rss", "--version", "--help",
        "--completion",
        // courier ws
        "--subprotocol", "--no-compression", "--max-message-size", "--ping-interval", "--binary-to", "--max-messages",
    ]

    static let fileOptions = [
        "--output", "-o", "--cacert", "--cert", "--cert-key", "--pin-cert", "--crlfile", "--binary-to",
    ]

    static let valueChoices = [
        ("--auth-type", "basic digest bearer"), ("-A", "basic digest bearer"),
        ("--pretty", "all colors format none"), ("--verify", "yes no"), ("--ocsp", "required preferred"),
        ("--completion", "bash zsh"),
    ]

    static func script(for shell: String, reservedWords: [String]) -> String? {
        let methods = RequestGrammar.knownMethods.sorted()
        switch shell {
        case "bash": return bash(firstWords: reservedWords + methods)
        case "zsh":
            return "#compdef courier\nautoload -U bashcompinit && bashcompinit\n"
                + bash(firstWords: reservedWords + methods)
        default: return nil
        }
    }

    private static func bash(firstWords: [String]) -> String {
        let choices = valueChoices.map { "        \($0.0)) COMPREPLY=($(compgen -W '\($0.1)' -- \"$cur\")); return ;;" }
        return """
            _courier() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
                case "$prev" in
            \(choices.joined(separator: "\n"))
                    \(fileOptions.joined(separator: "|"))) COMPREPLY=($(compgen -f -- "$cur")); return ;;
                esac
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W '\(options.joined(separator: " "))' -- "$cur"))
                elif [[ $COMP_CWORD -eq 1 ]]; then
                    COMPREPLY=($(compgen -W '\(firstWords.joined(separator: " "))' -- "$cur"))
                fi
            }
            complete -o default -F _courier courier

            """
    }
}
