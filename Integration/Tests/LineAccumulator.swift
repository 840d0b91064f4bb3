import CourierLocking
import Foundation

/// Splits a child's output into lines as chunks arrive from its pipe's reading thread, keeping the
/// unfinished last line for the next chunk.
final class LineAccumulator: Sendable {
    private let partial = Lock(Data())

    /// The lines `chunk` completes, without their newlines.
    func append(_ chunk: Data) -> [String] {
        partial.withLock { buffer in
            buffer.append(chunk)
            var lines: [String] = []
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
            return lines
        }
    }
}
