import Foundation

/// Makes URLSession trust the test CA for the `-h2` (TLS) rows.
///
/// FoundationNetworking on Linux has no way to trust a custom CA or skip verification: it keeps
/// libcurl's default CA file. So the client runs inside `unshare -m` with the test CA bind-mounted
/// over that file, in the client's private mount namespace only; the system is never touched. This
/// needs root (or CAP_SYS_ADMIN); without it the URLSession TLS rows are skipped with a reason.
enum URLSessionTrust {
    static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"
    static let unshare = "/usr/bin/unshare"
    static let script = "mount --bind \"$0\" \(systemBundle) && exec \"$@\""

    /// `command` wrapped so that it sees `caFile` as the system CA bundle.
    static func wrap(_ command: [String], caFile: String) -> [String] {
        [unshare, "--mount", "--propagation", "private", "/bin/sh", "-c", script, caFile] + command
    }

    /// Why the wrapper cannot work here, or `nil` after a check that it does (inside the namespace
    /// the bundle reads as the CA file; outside, it is unchanged).
    static func unavailableReason(caFile: String) -> String? {
        guard FileManager.default.isExecutableFile(atPath: unshare) else { return "\(unshare) is missing" }
        guard FileManager.default.fileExists(atPath: systemBundle) else { return "\(systemBundle) does not exist" }
        let before = FileManager.default.contents(atPath: systemBundle)
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: unshare)
        probe.arguments = Array(wrap(["/usr/bin/cmp", "-s", caFile, systemBundle], caFile: caFile).dropFirst())
        probe.standardError = FileHandle.nullDevice
        do {
            try probe.run()
        } catch {
            return "cannot run \(unshare): \(error)"
        }
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else {
            return
                "unshare -m with a bind mount over \(systemBundle) failed (exit \(probe.terminationStatus); needs root)"
        }
        guard FileManager.default.contents(atPath: systemBundle) == before else {
            return "the bind mount leaked out of the private namespace"
        }
        return nil
    }
}
