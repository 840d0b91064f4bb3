import CourierHTTP
import Testing

@testable import CourierCurl

@Suite struct HeaderStringCacheTests {
    private func text(_ bytes: [UInt8], from cache: HeaderStringCache) -> String {
        bytes.withUnsafeBytes { cache.string($0) }
    }

    /// The address of a String's UTF-8 storage: the same for two Strings that share it.
    private func storage(_ string: String) -> UnsafeRawPointer? {
        string.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    @Test func aRepeatedValueSharesTheStringMadeTheFirstTime() {
        let cache = HeaderStringCache()
        let value = Array("application/octet-stream".utf8)
        let first = text(value, from: cache)
        let second = text(value, from: cache)
        #expect(first == "application/octet-stream")
        #expect(second == first)
        #expect(storage(first) != nil)
        #expect(storage(second) == storage(first))
    }

    @Test func givesWhatDecodingGivesForEveryInput() {
        let cache = HeaderStringCache()
        let inputs: [[UInt8]] = [
            Array("short".utf8),
            Array("Fri, 04 Dec 2026 15:00:00 GMT".utf8),
            Array("Fri, 04 Dec 2026 15:00:01 GMT".utf8),
            Array("caf\u{E9} au lait, s'il vous pla\u{EE}t".utf8),
            Array("not UTF-8 at all: ".utf8) + [0xFF, 0xC3, 0x28, 0x80],
            Array(repeating: UInt8(ascii: "x"), count: HeaderStringCache.maximumLength + 1),
            // Short texts (their own table, keyed by the bytes and the length).
            [], Array("a".utf8), Array("ab".utf8), [0x61, 0x62, 0x00], [0xFF, 0x41],
            Array(repeating: UInt8(ascii: "y"), count: 15), Array(repeating: UInt8(ascii: "y"), count: 16),
        ]
        // Twice each, and many more texts than slots in between, so that slots are taken over.
        let filler =
            (0..<(HeaderStringCache.slotCount * 2)).map { Array("x-filler-value-\($0)-padding".utf8) }
            + (0..<(HeaderStringCache.shortSlotCount * 2)).map { Array("s\($0)".utf8) }
        for bytes in inputs + filler + inputs {
            #expect(text(bytes, from: cache) == String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test func aParserWithTheCacheReadsTheSameHeadsAsOneWithout() {
        let cache = HeaderStringCache()
        let head = [
            "HTTP/1.1 200 OK\r\n", "Content-Type: application/octet-stream\r\n",
            "Last-Modified: Fri, 04 Dec 2026 15:00:00 GMT\r\n", "X-Folded: first part\r\n", "\t second part\r\n",
            "\r\n",
        ]
        for _ in 0..<3 {
            var cached = ResponseHeadParser(strings: cache)
            var plain = ResponseHeadParser()
            for line in head {
                let bytes = Array(line.utf8)
                let outcome = bytes.withUnsafeBytes { cached.consume($0) }
                #expect(outcome == bytes.withUnsafeBytes { plain.consume($0) })
                if case .final(_, _, let headers) = outcome {
                    #expect(headers["X-Folded"] == "first part second part")
                    #expect(headers["Content-Type"] == "application/octet-stream")
                }
            }
        }
    }
}
