#if canImport(Glibc)
    internal import Glibc
#endif

/// Which parts of the exchange `courier` prints, and how: httpie's `--print` letters and `--pretty`.
///
/// `H` request headers, `B` request body, `h` response headers, `b` response body, `m` metrics.
/// Without `--print`: the response headers and body on a terminal, the body alone when stdout is
/// redirected (so `courier URL > file` saves the resource), the request with `--offline`, and
/// everything with `--verbose`. Colour and JSON formatting follow `--pretty`, by default both on a
/// terminal and neither elsewhere: colour never reaches a file or a pipe unless asked for.
struct OutputSelection {
    let parts: Set<Character>
    let colours: Bool
    let formats: Bool
    let showsCurlDescription: Bool

    init(_ line: RequestCommandLine, stdoutIsTerminal: Bool) {
        let toTerminal = stdoutIsTerminal && line.output == nil
        if line.quiet {
            parts = []
        } else if let letters = line.print {
            parts = Set(letters)
        } else if line.verbose {
            parts = Set("HBhbm")
        } else if line.offline {
            parts = Set("HB")
        } else {
            parts = toTerminal ? Set("hb") : Set("b")
        }
        let pretty = line.pretty ?? (toTerminal ? "all" : "none")
        colours = pretty == "all" || pretty == "colors"
        formats = pretty == "all" || pretty == "format"
        showsCurlDescription = line.verbose
    }

    func shows(_ part: Character) -> Bool { parts.contains(part) }

    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
