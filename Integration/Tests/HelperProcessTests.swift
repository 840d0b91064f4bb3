import Foundation
import Testing

/// The test kit's child-process runner.
@Suite struct HelperProcessTests {
    /// A child that never reads its piped input: the writer meets a closed pipe, which must not end
    /// the test process with SIGPIPE (a command that ignores stdin did, now and then, when it exited
    /// before the input was written). A megabyte cannot fit in the pipe, so the write always meets it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/true"), "no /bin/true"))
    func aChildThatIgnoresItsPipedInputDoesNotEndTheTestProcess() async throws {
        let result = try await runHelperProcess("/bin/true", [], input: Data(count: 1 << 20), inputIsPipe: true)
        #expect(result.status == 0)
    }
}
