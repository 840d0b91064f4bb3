import FoundationEssentials
import Testing

@testable import CourierCurl

@Suite struct BodyChunkBuffersTests {
    private func bytes(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) }
    }

    private func data(_ source: [UInt8], from buffers: BodyChunkBuffers) -> Data {
        source.withUnsafeBytes { buffers.data(copying: $0) }
    }

    /// The address of a Data's bytes: the same for two Datas in the same buffer.
    private func address(_ data: Data) -> UInt {
        data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func aChunkCopiedIntoABufferHasTheSameBytes() {
        let buffers = BodyChunkBuffers()
        for count in [0, 1, 100, 16 << 10, (16 << 10) + 1, 100_000, 256 << 10, 512 << 10, (512 << 10) + 1] {
            let source = bytes(count, seed: UInt8(truncatingIfNeeded: count))
            #expect(Array(data(source, from: buffers)) == source, "\(count) bytes")
        }
    }

    @Test func aDroppedLargeChunksBufferHoldsTheNextChunk() {
        let buffers = BodyChunkBuffers()
        var first: Data? = data(bytes(100_000), from: buffers)
        let firstAddress = first.map(address)
        #expect(buffers.idleCount == 0)
        first = nil
        #expect(buffers.idleCount == 1)
        let second = data(bytes(120_000, seed: 7), from: buffers)
        #expect(address(second) == firstAddress, "a chunk of the same size class reuses the buffer")
        #expect(Array(second) == bytes(120_000, seed: 7))
        #expect(buffers.idleCount == 0)
    }

    @Test func smallAndOverlongChunksAreNotPooled() {
        let buffers = BodyChunkBuffers()
        for count in [10, (16 << 10) - 1, (512 << 10) + 1] {
            var chunk: Data? = data(bytes(count), from: buffers)
            #expect(chunk?.count == count)
            chunk = nil
            #expect(buffers.idleCount == 0, "\(count) bytes")
        }
    }

    @Test func aChunkNeverHoldsMoreThanTwiceItsSize() throws {
        for count in [16 << 10, (16 << 10) + 1, 40_000, 65_536, 65_537, 300_000, 512 << 10] {
            let index = try #require(BodyChunkBuffers.sizeIndex(for: count))
            let size = BodyChunkBuffers.smallestPooledSize << index
            #expect(size >= count && size < 2 * count, "\(count) bytes in a buffer of \(size)")
        }
    }

    @Test func idleBuffersStayWithinTheLimit() {
        let buffers = BodyChunkBuffers()
        let size = 256 << 10
        var chunks: [Data] = (0..<20).map { _ in data(bytes(size), from: buffers) }
        #expect(buffers.idleCount == 0)
        chunks.removeAll()
        #expect(buffers.idleCount == BodyChunkBuffers.idleByteLimit / size)
    }
}
