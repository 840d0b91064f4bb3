internal import FoundationEssentials

/// Reads a body held in memory.
final class DataBodyReader: HTTPBodyReader {
    private let data: Data
    private var position: Int

    init(_ data: Data) {
        self.data = data
        position = data.startIndex
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> HTTPBodyReadResult {
        guard position < data.endIndex else { return .end }
        let count = min(buffer.count, data.endIndex - position)
        guard count > 0 else { return .bytes(0) }
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: position..<(position + count))
        position += count
        return .bytes(count)
    }

    func rewind() throws {
        position = data.startIndex
    }
}
