import Foundation

/// `soak`: mixed traffic for `COURIER_SOAK_SECONDS` (default 300) in a child process of its own
/// (see ``SoakClient``), so that its memory and descriptors start from a fresh process. Prints
/// requests completed per operation, failures by kind, and resident memory and open descriptors
/// after the warm-up and at the end (the target: flat); fails when an operation that should have
/// worked did not.
enum SoakGroup {
    static func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let seconds = Int(environment["COURIER_SOAK_SECONDS"] ?? "") ?? 300
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["child-soak", String(seconds)]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            log("soak: FAILED (exit status \(process.terminationStatus))")
            exit(1)
        }
    }
}
