import CourierImageCache
import Foundation
import Testing

@Suite struct PixelImageTests {
    @Test func holdsItsPixelsSizeAndScale() throws {
        let image = try PixelImage(width: 2, height: 1, scale: 2, pixels: [1, 2, 3, 4, 5, 6, 7, 8])

        #expect(image.width == 2)
        #expect(image.height == 1)
        #expect(image.scale == 2)
        #expect(image.memoryCost == 8)
    }

    @Test(arguments: [
        (2, 2, 1.0, 15, "2 × 2 pixels need 2 × 2 × 4 bytes of RGBA, got 15"),
        (-1, 2, 1.0, 0, "-1 × 2 pixels is not a size"),
        (1, 1, 0.0, 4, "scale 0.0 is not positive"),
        (1, 1, Double.nan, 4, "scale nan is not positive"),
        (Int.max, 2, 1.0, 0, "9223372036854775807 × 2 pixels need 9223372036854775807 × 2 × 4 bytes of RGBA, got 0"),
    ])
    func rejectsABufferThatDoesNotMatch(width: Int, height: Int, scale: Double, count: Int, reason: String) {
        let error = #expect(throws: ImageCacheError.self) {
            try PixelImage(width: width, height: height, scale: scale, pixels: [UInt8](repeating: 0, count: count))
        }
        #expect(error?.code == .invalidPixelBuffer)
        #expect(error?.reason == reason)
    }

    @Test func anEmptyImageIsValid() throws {
        let image = try PixelImage(width: 0, height: 5, pixels: [])
        #expect(image.memoryCost == 0)
    }

    @Test func roundTripsThroughItsDiskRepresentation() throws {
        let image = try PixelImage(width: 3, height: 2, scale: 1.5, pixels: (0..<24).map { UInt8($0) })

        let bytes = image.diskRepresentation()

        #expect(bytes.count == 24 + 24)
        #expect(
            Array(bytes.prefix(24)) == Array("CPX1".utf8) + [3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0] + [
                0, 0, 0, 0, 0, 0, 0xF8, 0x3F,
            ]
        )
        #expect(try PixelImage(diskRepresentation: bytes) == image)
    }

    @Test func rejectsDiskBytesItDidNotWrite() throws {
        let bytes = try PixelImage(width: 1, height: 1, pixels: [1, 2, 3, 4]).diskRepresentation()
        for damaged in [Data(), Data("CPX2".utf8) + bytes.dropFirst(4), bytes.dropLast(), bytes + Data([0])] {
            let error = #expect(throws: ImageCacheError.self) { try PixelImage(diskRepresentation: Data(damaged)) }
            #expect(error?.code == .invalidDiskRepresentation)
        }
    }
}
