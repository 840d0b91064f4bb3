internal import FoundationEssentials

/// Where `--session NAME|PATH` lives, as httpie places it: a value with a `/` is a file path (a
/// leading `~/` is the home folder); anything else is a name of letters, digits, `_`, `.` and `-`,
/// kept per host under the XDG config folder:
/// `$XDG_CONFIG_HOME/courier/sessions/HOST_PORT/NAME.json` (`~/.config` when the variable is unset;
/// httpie uses `…/httpie/…`). The host is the `Host` header when one is given, else the URL's
/// host and port, with `:` made `_`, so `:8080` and `:8081` keep separate sessions.
enum SessionLocation {
    static func path(
        _ value: String,
        url: URL,
        hostHeader: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> String {
        if value.contains("/") {
            if value.hasPrefix("~/"), let home = environment["HOME"] { return home + value.dropFirst() }
            return value
        }
        let allowed = value.unicodeScalars.allSatisfy {
            $0.isASCII && (Character($0).isLetter || Character($0).isNumber || "_.-".unicodeScalars.contains($0))
        }
        guard !value.isEmpty, allowed, value != ".", value != ".." else {
            throw UsageError(
                message:
                    "--session takes a name of letters, digits, _ . - or a path with a /, not \(value.debugDescription)"
            )
        }
        guard let host = hostHeader ?? MessageWriter.authority(of: url) else {
            throw UsageError(message: "--session \(value) needs a URL with a host")
        }
        return try sessionsFolder(environment) + "/" + String(host.map { $0 == ":" ? "_" : $0 }) + "/\(value).json"
    }

    /// `courier/sessions` in the XDG config folder (a relative `XDG_CONFIG_HOME` is ignored, as the
    /// XDG Base Directory Specification says).
    static func sessionsFolder(_ environment: [String: String]) throws(UsageError) -> String {
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
            return configHome + "/courier/sessions"
        }
        guard let home = environment["HOME"], !home.isEmpty else {
            throw UsageError(message: "--session NAME needs HOME or XDG_CONFIG_HOME; give a path instead")
        }
        return home + "/.config/courier/sessions"
    }
}
