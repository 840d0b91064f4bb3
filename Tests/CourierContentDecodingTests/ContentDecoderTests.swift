import CCourierZlib
import CCourierZstd
import CourierContentDecoding
import CourierTestSupport
import Foundation
import Testing

@Suite struct ContentDecoderTests {
    /// About 300 KiB of JSON-like text with random numbers in it: compressible, but not trivially.
    static func sample(seed: UInt64) -> Data {
        var random = SeededRandom(seed: seed)
        var text = "["
        for index in 0..<6000 {
            text += "{\"id\":\(index),\"value\":\(random.next() % 100_000),\"name\":\"courier\"},"
        }
        return Data((text + "{}]").utf8)
    }

    @Test(arguments: [ContentCoding.gzip, .deflate, .rawDeflate, .brotli, .zstd])
    func roundTripsThroughTheReferenceEncoder(_ coding: ContentCoding) throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var random = SeededRandom(seed: seed)
        let original = Self.sample(seed: seed)
        let encoded = try Encoders.encode(original, as: coding)
        let feedSize = Int(random.next() % 8000) + 1
        let readSize = Int(random.next() % 20000) + 1
        let decoded = try decodeAll(ContentDecoder(codings: [coding]), encoded, feedSize: feedSize, readSize: readSize)
        #expect(decoded == original, "feed \(feedSize), read \(readSize)")
    }

    @Test func deflateAcceptsABareDeflateStreamAsBrowsersDo() throws {
        let original = Self.sample(seed: 7)
        let bare = try Encoders.deflate(original, windowBits: -15)
        #expect(try decodeAll(ContentDecoder(contentEncoding: "deflate"), bare) == original)
        let wrapped = try Encoders.deflate(original, windowBits: 15)
        #expect(wrapped.prefix(1) == Data([0x78]))
        #expect(try decodeAll(ContentDecoder(contentEncoding: "deflate"), wrapped) == original)
    }

    @Test func stackedCodingsDecodeInReverseOrder() throws {
        let original = Self.sample(seed: 11)
        // `Content-Encoding: gzip, br`: gzip was applied first, then brotli over it.
        let encoded = try Encoders.encode(original, as: [.gzip, .brotli])
        let decoder = try ContentDecoder(contentEncoding: "gzip, br")
        #expect(decoder.codings == [.gzip, .brotli])
        #expect(try decodeAll(decoder, encoded, feedSize: 999, readSize: 777) == original)
        // The other order does not decode it.
        #expect(throws: ContentDecodingError.self) {
            try decodeAll(ContentDecoder(contentEncoding: "br, gzip"), encoded)
        }
    }

    @Test func threeStackedCodings() throws {
        let original = Self.sample(seed: 13)
        let encoded = try Encoders.encode(original, as: [.zstd, .deflate, .gzip])
        #expect(try decodeAll(ContentDecoder(contentEncoding: "zstd, deflate, x-gzip"), encoded) == original)
    }

    @Test func identityIsSkipped() throws {
        #expect(try ContentCoding.codings(contentEncoding: "identity, GZIP ,, br") == [.gzip, .brotli])
        #expect(try ContentCoding.codings(contentEncoding: " identity ").isEmpty)
        let passThrough = try ContentDecoder(contentEncoding: "identity")
        #expect(try decodeAll(passThrough, Data("plain".utf8), feedSize: 2, readSize: 3) == Data("plain".utf8))
    }

    @Test func unknownCodingIsATypedError() {
        #expect {
            try ContentCoding.codings(contentEncoding: "gzip, compress")
        } throws: { error in
            let error = error as? ContentDecodingError
            return error?.code == .unsupportedCoding && error?.detail == "unsupported content coding \"compress\""
        }
    }

    @Test func tooManyStackedCodingsAreRefused() throws {
        let header = Array(repeating: "gzip", count: ContentCoding.maximumStackDepth + 1).joined(separator: ",")
        #expect {
            try ContentDecoder(contentEncoding: header)
        } throws: { ($0 as? ContentDecodingError)?.code == .tooManyCodings }
        _ = try ContentDecoder(contentEncoding: header.split(separator: ",").dropFirst().joined(separator: ","))
    }

    /// Not bare deflate: it has no checksum, so damage can decode to other bytes (see below).
    @Test(arguments: [ContentCoding.gzip, .deflate, .brotli, .zstd])
    func corruptDataIsATypedError(_ coding: ContentCoding) throws {
        var encoded = try Encoders.encode(Self.sample(seed: 3), as: coding)
        // Damage the middle of the stream: a bad block, distance or checksum.
        let middle = encoded.startIndex + encoded.count / 2
        for index in middle..<(middle + 16) { encoded[index] ^= 0x5A }
        let decoder = try ContentDecoder(codings: [coding])
        #expect {
            try decodeAll(decoder, encoded)
        } throws: { error in
            let error = error as? ContentDecodingError
            return error?.code == .corruptData && error?.coding == coding
        }
    }

    @Test func reservedBlockTypeIsCorruptBareDeflate() throws {
        // 0x07: BFINAL set and BTYPE 11, which RFC 1951 §3.2.3 reserves.
        #expect {
            try decodeAll(ContentDecoder(codings: [.rawDeflate]), Data([0x07, 0x00, 0x00]))
        } throws: { ($0 as? ContentDecodingError)?.code == .corruptData }
    }

    @Test func garbageIsCorrupt() throws {
        for header in ["gzip", "br", "zstd"] {
            #expect(throws: ContentDecodingError.self, "\(header)") {
                try decodeAll(ContentDecoder(contentEncoding: header), Data("not compressed at all!".utf8))
            }
        }
    }

    @Test(arguments: [ContentCoding.gzip, .deflate, .rawDeflate, .brotli, .zstd])
    func truncatedStreamIsATypedError(_ coding: ContentCoding) throws {
        let original = Self.sample(seed: 5)
        let encoded = try Encoders.encode(original, as: coding)
        let decoder = try ContentDecoder(codings: [coding])
        var decoded = Data()
        #expect {
            // Everything but the last few bytes: the input ends mid-frame.
            decoded = try decodeAll(decoder, encoded.dropLast(3))
        } throws: { error in
            let error = error as? ContentDecodingError
            return error?.code == .truncatedStream && error?.coding == coding
        }
        #expect(decoded.isEmpty)
        #expect(!decoder.isComplete)
    }

    @Test func readWithoutFinishWaitsForMoreInput() throws {
        let encoded = try Encoders.encode(Self.sample(seed: 5), as: .gzip)
        let decoder = try ContentDecoder(codings: [.gzip])
        decoder.feed(encoded.prefix(10))
        #expect(try decoder.read(maximumCount: 100) == nil)
        decoder.finish()
        #expect(throws: ContentDecodingError.self) { try decoder.read(maximumCount: 100) }
    }

    @Test func gzipMembersMayFollowOneAnother() throws {
        let first = Data("first member\n".utf8)
        let second = Data("second member\n".utf8)
        let encoded = try Encoders.encode(first, as: .gzip) + Encoders.encode(second, as: .gzip)
        #expect(try decodeAll(ContentDecoder(codings: [.gzip]), encoded, feedSize: 1) == first + second)
        let frames = try Encoders.zstd(first) + Encoders.zstd(second)
        #expect(try decodeAll(ContentDecoder(codings: [.zstd]), frames, feedSize: 5) == first + second)
    }

    @Test(arguments: [ContentCoding.gzip, .deflate, .brotli])
    func bytesAfterTheEndAreTrailingData(_ coding: ContentCoding) throws {
        let encoded = try Encoders.encode(Data("payload".utf8), as: coding) + Data("junk".utf8)
        #expect {
            try decodeAll(ContentDecoder(codings: [coding]), encoded)
        } throws: { ($0 as? ContentDecodingError)?.code == .trailingData }
    }

    @Test func emptyBodyOfACompressedCodingIsTruncated() throws {
        let decoder = try ContentDecoder(codings: [.gzip])
        decoder.finish()
        #expect(throws: ContentDecodingError.self) { try decoder.read(maximumCount: 1) }
    }

    @Test func zstdFrameAboveTheHTTPWindowLimitIsRefused() throws {
        // No pledged size, so the frame header declares the whole 128 MiB window (RFC 9659 caps 8 MiB).
        let context = try #require(ZSTD_createCCtx())
        defer { ZSTD_freeCCtx(context) }
        #expect(ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, 27)) == 0)
        let input = Data(repeating: 0x41, count: 1000)
        var output = Data(count: 4096)
        let size = output.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { source in
                var inBuffer = ZSTD_inBuffer(src: source.baseAddress, size: source.count, pos: 0)
                var outBuffer = ZSTD_outBuffer(dst: out.baseAddress, size: out.count, pos: 0)
                _ = ZSTD_compressStream2(context, &outBuffer, &inBuffer, ZSTD_e_continue)
                _ = ZSTD_compressStream2(context, &outBuffer, &inBuffer, ZSTD_e_end)
                return outBuffer.pos
            }
        }
        output.count = size
        #expect {
            try decodeAll(ContentDecoder(codings: [.zstd]), output)
        } throws: { error in
            let error = error as? ContentDecodingError
            return error?.code == .corruptData && error?.detail.contains("memory") == true
        }
    }
}
