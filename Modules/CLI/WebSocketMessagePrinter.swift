internal import CourierWebSocket
internal import FoundationEssentials

#if canImport(Glibc)
    internal import Glibc
#endif

/// How `courier ws` writes what the server sends: each text message on a line of its own, each
/// binary message as a line of base64, or, with `--binary-to FILE`, its bytes appended to FILE.
struct WebSocketMessagePrinter {
    /// Where text (and base64) lines go: stdout.
    let descriptor: Int32
    /// The `--binary-to` file, open for appending; `nil` prints binary messages as base64.
    let binaryDescriptor: Int32?

    /// The bytes one message becomes on its descriptor.
    static func line(for message: WebSocketMessage) -> Data {
        switch message {
        case .text(let text): Data((text + "\n").utf8)
        case .binary(let bytes): Data((Data(bytes).base64EncodedString() + "\n").utf8)
        }
    }

    /// Writes one message where it belongs.
    func write(_ message: WebSocketMessage) throws(CommandFailure) {
        if case .binary(let bytes) = message, let binaryDescriptor {
            try StandardStreams.write(Data(bytes), to: binaryDescriptor)
        } else {
            try StandardStreams.write(Self.line(for: message), to: descriptor)
        }
    }

    /// Opens `path` for `--binary-to`: created when missing, appended to when not, so that one
    /// file can collect several runs, as `>>` would.
    static func openBinaryFile(_ path: String) throws(CommandFailure) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }
}
