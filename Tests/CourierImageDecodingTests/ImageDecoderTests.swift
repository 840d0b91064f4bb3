import CourierImageCache
import CourierImageDecoding
import Foundation
import Testing

@Suite struct ImageDecoderTests {
    let decoder = ImageDecoder()

    @Test(arguments: Fixture.all)
    func decodesEveryFixtureToRGBA(name: String) throws {
        let image = try decoder.decode(try Fixture.data(name), scale: 2)

        #expect(image.width == 37)
        #expect(image.height == 23)
        #expect(image.scale == 2)
        #expect(image.pixels.count == 37 * 23 * 4)
    }

    @Test func decodesALosslessRGBAPNGExactly() throws {
        let image = try decoder.decode(try Fixture.data("gradient-rgba.png"))

        for (x, y) in [(0, 0), (36, 0), (0, 22), (17, 11), (36, 22)] {
            let offset = (y * 37 + x) * 4
            #expect(Array(image.pixels[offset..<offset + 4]) == Fixture.pixel(x: x, y: y), "pixel \(x), \(y)")
        }
    }

    @Test func decodesALosslessWebPExactly() throws {
        let webp = try decoder.decode(try Fixture.data("gradient-lossless.webp"))
        let png = try decoder.decode(try Fixture.data("gradient-rgba.png"))
        #expect(webp.pixels == png.pixels)
    }

    @Test func expandsGrayAndPalettesWithTransparency() throws {
        let gray = try decoder.decode(try Fixture.data("gradient-gray.png"))
        let palette = try decoder.decode(try Fixture.data("gradient-palette.png"))

        // Gray 255 × 17 / 36 = 120 at x = 17, repeated in R, G and B, opaque.
        let offset = (11 * 37 + 17) * 4
        #expect(Array(gray.pixels[offset..<offset + 4]) == [120, 120, 120, 255])
        // Palette index 0 at (0, 0): (0, 255, 128), alpha 0 from tRNS; index 1: alpha 128; index 2: opaque.
        #expect(Array(palette.pixels[0..<4]) == [0, 255, 128, 0])
        #expect(Array(palette.pixels[4..<8]) == [16, 239, 128, 128])
        #expect(Array(palette.pixels[8..<12]) == [32, 223, 128, 255])
    }

    @Test func aLossyJPEGIsCloseToTheSource() throws {
        let image = try decoder.decode(try Fixture.data("gradient.jpg"))
        var worst = 0
        for y in 0..<23 {
            for x in 0..<37 {
                let offset = (y * 37 + x) * 4
                let expected = Fixture.pixel(x: x, y: y)
                for channel in 0..<3 {
                    worst = max(worst, abs(Int(image.pixels[offset + channel]) - Int(expected[channel])))
                }
                #expect(image.pixels[offset + 3] == 255)
            }
        }
        #expect(worst < 40, "largest channel error \(worst)")
    }

    @Test(arguments: [(0, 37, 23), (37, 37, 23), (19, 19, 12), (18, 19, 12), (10, 10, 6), (5, 5, 3), (1, 5, 3)])
    func downsamplesAJPEGWithTheDCT(minimum: Int, width: Int, height: Int) throws {
        let image = try decoder.decode(try Fixture.data("gradient.jpg"), minimumLongestSide: minimum)
        #expect(image.width == width)
        #expect(image.height == height)
    }

    @Test func downsamplingLeavesOtherFormatsAtFullSize() throws {
        let image = try decoder.decode(try Fixture.data("gradient-rgba.png"), minimumLongestSide: 5)
        #expect(image.width == 37)
    }

    @Test(arguments: Fixture.all)
    func rejectsAnImageOverThePixelLimit(name: String) throws {
        let small = ImageDecoder(limits: .init(maximumPixelCount: 37 * 23 - 1))

        let error = #expect(throws: ImageDecodingError.self) { try small.decode(try Fixture.data(name)) }

        #expect(error?.code == .tooLarge, "\(String(describing: error))")
        #expect(try ImageDecoder(limits: .init(maximumPixelCount: 37 * 23)).decode(try Fixture.data(name)).width == 37)
    }

    @Test func aDownsampledJPEGMayComeFromALargerSource() throws {
        // 851 source pixels, 60 after 1/4 scaling: within a limit of 100.
        let decoder = ImageDecoder(limits: .init(maximumPixelCount: 100))
        let image = try decoder.decode(try Fixture.data("gradient.jpg"), minimumLongestSide: 10)
        #expect(image.width * image.height == 60)
    }

    @Test(arguments: [33, Int.max])
    func rejectsAHugePNGHeaderBeforeAllocating(length: Int) throws {
        // An IHDR of 100,000 × 100,000 pixels with a valid CRC, alone or followed by the rest.
        var png = try Fixture.data("gradient-rgba.png").prefix(length)
        png.replaceSubrange(16..<24, with: [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0])
        png.replaceSubrange(29..<33, with: crc32(Array(png[12..<29])))

        let error = #expect(throws: ImageDecodingError.self) { try decoder.decode(Data(png)) }

        #expect(error?.code == .tooLarge)
        #expect(error?.format == .png)
        #expect(error?.reason == "100000 x 100000 pixels is over the limit of 67108864")
    }

    @Test func rejectsAnOversizedInput() throws {
        let decoder = ImageDecoder(limits: .init(maximumInputSize: 100))
        let error = #expect(throws: ImageDecodingError.self) { try decoder.decode(try Fixture.data("gradient.jpg")) }
        #expect(error?.code == .tooLarge)
        #expect(error?.reason == "843 bytes is over the input limit of 100")
    }

    @Test(arguments: [Data(), Data("GIF89a".utf8), Data("RIFF\0\0\0\0WAVE".utf8)])
    func rejectsOtherFormats(data: Data) {
        let error = #expect(throws: ImageDecodingError.self) { try decoder.decode(data) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.format == nil)
    }

    @Test func sniffsTheFormats() throws {
        #expect(ImageFormat(sniffing: try Fixture.data("gradient-rgba.png")) == .png)
        #expect(ImageFormat(sniffing: try Fixture.data("gradient.jpg")) == .jpeg)
        #expect(ImageFormat(sniffing: try Fixture.data("gradient-lossy.webp")) == .webp)
        #expect(ImageFormat(sniffing: Data("RIFF".utf8)) == nil)
    }

    private func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        return [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }
}
