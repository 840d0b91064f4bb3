import CourierImageCache
import CourierImageDecoding
import Foundation
import Testing

@Suite struct PNGEncoderTests {
    @Test func roundTripsThroughTheDecoder() throws {
        let source = try ImageDecoder().decode(try Fixture.data("gradient-lossless.webp"))

        let png = try PNGEncoder().encode(source)
        let decoded = try ImageDecoder().decode(png)

        #expect(ImageFormat(sniffing: png) == .png)
        #expect(decoded.pixels == source.pixels)
        #expect(decoded.width == 37)
    }

    @Test func refusesAnEmptyImage() throws {
        let empty = try PixelImage(width: 0, height: 4, pixels: [])
        let error = #expect(throws: ImageDecodingError.self) { try PNGEncoder().encode(empty) }
        #expect(error?.code == .corrupt)
    }
}
