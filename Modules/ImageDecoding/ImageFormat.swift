public import FoundationEssentials

/// The encoded image formats ``ImageDecoder`` reads, recognised by their first bytes.
///
/// ```swift
/// ImageFormat(sniffing: Data([0xFF, 0xD8, 0xFF, 0xE0]))  // .jpeg
/// ```
public enum ImageFormat: Sendable, Hashable, CaseIterable {
    /// PNG (`image/png`).
    case png
    /// JPEG (`image/jpeg`), baseline or progressive.
    case jpeg
    /// WebP (`image/webp`), lossy or lossless, still images only.
    case webp

    /// The format whose signature `data` starts with, or `nil`.
    ///
    /// ```swift
    /// if let format = ImageFormat(sniffing: body) { print(format) }
    /// ```
    public init?(sniffing data: Data) {
        let head = [UInt8](data.prefix(12))
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.count == 12, head[0..<4].elementsEqual("RIFF".utf8), head[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The format's MIME type.
    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }
}
