import Foundation

/// What `ci/servers start` set up for the integration tests, read from the environment.
///
/// `ci/test` exports these variables; a test that needs one is disabled with a reason when it is
/// missing, so a plain `swift test` on a laptop skips integration tests instead of failing them.
enum IntegrationEnvironment {
    /// A Python interpreter whose environment has the pinned test tools (werkzeug…).
    static var python: String? { ProcessInfo.processInfo.environment["COURIER_PYTHON"] }

    /// The folder of the helper scripts the integration tests run.
    static var toolsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("tools")
    }

    /// The seed of randomised tests: `COURIER_TEST_SEED` when set, otherwise a fresh one. Tests print it.
    static func seed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["COURIER_TEST_SEED"], let seed = UInt64(text) {
            return seed
        }
        return UInt64.random(in: 1...UInt64.max)
    }
}

/// The outcome of a helper process.
struct ToolResult {
    let status: Int32
    let standardOutput: Data
    let standardError: String
}

/// Runs a helper script under the test Python, feeding `input` on stdin.
///
/// Input and output go through temporary files, so a chatty child never blocks on a full pipe, and
/// the calling task awaits the child's exit through a continuation: no cooperative thread blocks.
func runPythonTool(_ script: String, arguments: [String] = [], input: Data) async throws -> ToolResult {
    guard let python = IntegrationEnvironment.python else {
        throw ToolError(message: "COURIER_PYTHON is not set")
    }
    let files = FileManager.default
    let base = files.temporaryDirectory.appendingPathComponent("courier-tool-\(UUID().uuidString)")
    let inputFile = base.appendingPathExtension("in")
    let outputFile = base.appendingPathExtension("out")
    let errorFile = base.appendingPathExtension("err")
    try input.write(to: inputFile)
    try Data().write(to: outputFile)
    try Data().write(to: errorFile)
    defer {
        for file in [inputFile, outputFile, errorFile] { try? files.removeItem(at: file) }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [IntegrationEnvironment.toolsDirectory.appendingPathComponent(script).path] + arguments
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    process.standardOutput = try FileHandle(forWritingTo: outputFile)
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        process.terminationHandler = { _ in continuation.resume() }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
    return ToolResult(
        status: process.terminationStatus,
        standardOutput: try Data(contentsOf: outputFile),
        standardError: String(decoding: try Data(contentsOf: errorFile), as: UTF8.self)
    )
}

struct ToolError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
