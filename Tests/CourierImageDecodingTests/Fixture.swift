import Foundation

/// The fixtures in `Fixtures/` (made by `Fixtures/make-fixtures.sh`), read relative to this file.
enum Fixture {
    static let directory = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    static let all = [
        "gradient-rgba.png", "gradient-gray.png", "gradient-palette.png", "gradient.jpg",
        "gradient-progressive.jpg", "gradient-gray.jpg", "gradient-lossy.webp", "gradient-lossless.webp",
    ]

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appending(path: name))
    }

    /// The gradient every fixture holds: RGBA of pixel (x, y) as make_png.py computes it.
    static func pixel(x: Int, y: Int) -> [UInt8] {
        [UInt8(x * 255 / 36), UInt8(y * 255 / 22), UInt8((x + y) * 4 % 256), UInt8(255 - x * 3)]
    }
}
