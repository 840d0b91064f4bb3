import CourierImageCache
import CourierImageDecoding
import CourierTestSupport
import Foundation
import Testing

/// Truncated and bit-flipped fixtures: every one gives a typed error or a whole image, never a
/// crash; every truncation is an error.
@Suite struct CorruptionCorpusTests {
    let decoder = ImageDecoder()

    @Test(arguments: Fixture.all)
    func everyTruncationIsATypedError(name: String) throws {
        let whole = try Fixture.data(name)
        for length in 0..<whole.count {
            #expect(throws: ImageDecodingError.self, "\(name) cut to \(length) bytes") {
                try decoder.decode(whole.prefix(length))
            }
        }
    }

    @Test(arguments: Fixture.all)
    func bitFlipsGiveATypedErrorOrAWholeImage(name: String) throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed) (\(name))")
        var random = SeededRandom(seed: seed)
        let whole = try Fixture.data(name)
        var errors = 0
        for _ in 0..<300 {
            var damaged = whole
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let position = Int.random(in: 0..<damaged.count, using: &random)
                damaged[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            }
            do {
                let image = try decoder.decode(damaged)
                #expect(image.pixels.count == image.width * image.height * 4)
                #expect(image.width * image.height <= decoder.limits.maximumPixelCount)
            } catch {
                errors += 1
            }
        }
        print("\(name): \(errors) of 300 damaged copies rejected")
    }
}
