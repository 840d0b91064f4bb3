import CourierImageCache
import CourierImageDecoding
import Testing

@Suite struct ThumbnailTests {
    func image(width: Int, height: Int, pixel: (Int, Int) -> [UInt8]) throws -> PixelImage {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        return try PixelImage(width: width, height: height, pixels: pixels)
    }

    @Test func fitsTheBoundsAndKeepsTheShape() throws {
        let wide = try image(width: 37, height: 23) { _, _ in [10, 20, 30, 255] }
        let thumbnail = try wide.thumbnail(fitting: 16, 16)
        #expect((thumbnail.width, thumbnail.height) == (16, 10))
        #expect(thumbnail.pixels.count == 16 * 10 * 4)
        #expect(Set(stride(from: 0, to: thumbnail.pixels.count, by: 4).map { thumbnail.pixels[$0 + 1] }) == [20])
        let tall = try image(width: 10, height: 40) { _, _ in [0, 0, 0, 255] }
        #expect(try tall.thumbnail(fitting: 8, 8).width == 2)
        #expect(try tall.thumbnail(fitting: 100, 100) == tall, "an image that fits is returned as it is")
        #expect(throws: ImageCacheError.self) { try tall.thumbnail(fitting: 0, 8) }
    }

    @Test func averagesWithAlphaSoTransparentPixelsDoNotDarkenTheEdges() throws {
        // A 2 × 2 block: two opaque white pixels, two fully transparent black ones.
        let block = try image(width: 2, height: 2) { x, _ in x == 0 ? [255, 255, 255, 255] : [0, 0, 0, 0] }
        let pixel = try block.thumbnail(fitting: 1, 1).pixels
        #expect(pixel == [255, 255, 255, 128], "white at half coverage, not grey")
    }
}
