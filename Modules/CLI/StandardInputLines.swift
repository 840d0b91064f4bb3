internal import Dispatch

/// stdin's lines, read one at a time when asked for, on a queue of their own.
///
/// A read from a terminal or a quiet pipe can block for as long as the user likes; it must not hold
/// one of the cooperative pool's few threads, which the WebSocket's reader needs meanwhile. Reading a
/// line only when the previous one has been sent is the backpressure: a large file on stdin is never
/// held in memory ahead of the socket.
struct StandardInputLines: LineSource {
    private let queue = DispatchQueue(label: "courier.ws.stdin")

    /// The next line without its line break (`\n` or `\r\n`), or `nil` at the end of stdin.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: readLine(strippingNewline: true)) }
        }
    }
}
