internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// Writes to the process's standard streams without buffering surprises: diagnostics go to stderr
/// line by line, body bytes to stdout (or any descriptor) in full.
enum StandardStreams {
    /// Whether stderr is a terminal: progress lines redraw in place only there.
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Writes `text` to stderr as is (no newline added).
    static func writeError(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write($0, to: STDERR_FILENO) }
    }

    /// Writes one diagnostic line to stderr.
    static func printError(_ line: String) {
        writeError(line + "\n")
    }

    /// Writes all of `data` to `descriptor`, retrying partial writes and interruptions.
    ///
    /// Blocks the calling thread while the reader of a pipe is slow. The `courier` commands run one
    /// transfer at a time, so that wait is the backpressure they want: the transport pauses the
    /// download while the consumer is blocked here.
    static func write(_ data: Data, to descriptor: Int32) throws(CommandFailure) {
        let failure = data.withUnsafeBytes { write($0, to: descriptor) }
        if let failure { throw CommandFailure("cannot write output: \(String(cString: strerror(failure)))") }
    }

    /// Writes the whole buffer; returns the `errno` of a failed write.
    private static func write(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        guard var base = buffer.baseAddress else { return nil }
        var remaining = buffer.count
        while remaining > 0 {
            let written = Glibc.write(descriptor, base, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            remaining -= written
            base += written
        }
        return nil
    }
}
