import CCourierZlib
import CourierContentDecoding
import Foundation
import Testing

@Suite struct DecompressionBombTests {
    static let gibibyte = 1 << 30

    /// 1 GiB of zeros through zlib's gzip encoder at level 9: about 1 MiB, 1030:1.
    static let bomb: Data = {
        guard var deflater = try? Encoders.Deflater(windowBits: 31, level: 9) else { return Data() }
        let zeros = Data(count: 1 << 20)
        var output = Data()
        for _ in 0..<(gibibyte >> 20) { output += (try? deflater.deflate(zeros, flush: Z_NO_FLUSH)) ?? Data() }
        output += (try? deflater.deflate(Data(), flush: Z_FINISH)) ?? Data()
        return output
    }()

    @Test func sixteenKibibytesNeverTurnIntoMoreThanOneRead() throws {
        let bomb = Self.bomb
        #expect(bomb.count > 100 << 10 && bomb.count < 2 << 20, "\(bomb.count) bytes")
        let decoder = try ContentDecoder(codings: [.gzip])
        decoder.feed(bomb.prefix(16 << 10))
        let piece = try #require(try decoder.read(maximumCount: 64 << 10))
        #expect(piece.count == 64 << 10)
        #expect(piece.allSatisfy { $0 == 0 })
        // What was not read stays compressed: at most the 16 KiB that were fed.
        #expect(decoder.bufferedInputCount <= 16 << 10)
    }

    @Test func decodesAGibibyteInBoundedPieces() throws {
        let bomb = Self.bomb
        let decoder = try ContentDecoder(codings: [.gzip])
        let feedSize = 16 << 10
        let readSize = 256 << 10
        var total = 0
        var largestRead = 0
        var largestBuffered = 0
        var offset = 0
        var nonZero = false
        while offset < bomb.count || !decoder.isComplete {
            if offset < bomb.count {
                let end = min(offset + feedSize, bomb.count)
                decoder.feed(bomb[offset..<end])
                offset = end
                if offset == bomb.count { decoder.finish() }
            }
            largestBuffered = max(largestBuffered, decoder.bufferedInputCount)
            while let piece = try decoder.read(maximumCount: readSize) {
                total += piece.count
                largestRead = max(largestRead, piece.count)
                if piece.first != 0 || piece.last != 0 { nonZero = true }
            }
        }
        #expect(total == Self.gibibyte)
        #expect(largestRead == readSize)
        #expect(largestBuffered <= feedSize)
        #expect(!nonZero)
    }

    @Test func stackedBombHoldsBoundedIntermediateOutput() throws {
        // gzip inside zstd: the zstd stage's output waits in pieces of at most 64 KiB.
        let inner = Self.bomb.prefix(256 << 10)  // a valid prefix of the gzip stream: ~256 MiB of zeros
        let outer = try Encoders.zstd(Data(inner))
        let decoder = try ContentDecoder(codings: [.gzip, .zstd])
        decoder.feed(outer)
        var total = 0
        for _ in 0..<100 {
            guard let piece = try decoder.read(maximumCount: 32 << 10) else { break }
            #expect(piece.count <= 32 << 10)
            total += piece.count
        }
        #expect(total == 100 * (32 << 10))
    }
}
