public import FoundationEssentials

extension PixelImage: DiskCodableImage {
    private static let magic: [UInt8] = Array("CPX1".utf8)
    private static let headerSize = 24

    /// `"CPX1"`, width and height as little-endian `UInt32`, four zero bytes, the scale's IEEE 754
    /// bits as a little-endian `UInt64`, then the RGBA bytes.
    ///
    /// ```swift
    /// let bytes = try PixelImage(width: 1, height: 1, pixels: [1, 2, 3, 4]).diskRepresentation()
    /// print(bytes.count)  // 28
    /// ```
    public func diskRepresentation() -> Data {
        var data = Data(Self.magic)
        data.reserveCapacity(Self.headerSize + pixels.count)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: width).littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: height).littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: [0, 0, 0, 0])
        withUnsafeBytes(of: scale.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: pixels)
        return data
    }

    /// Reads an image that ``diskRepresentation()`` wrote.
    ///
    /// ```swift
    /// let image = try PixelImage(diskRepresentation: bytes)
    /// ```
    ///
    /// - Throws: ``ImageCacheError/Code/invalidDiskRepresentation`` for anything else, including a
    ///   representation whose length does not match its dimensions.
    public init(diskRepresentation data: Data) throws(ImageCacheError) {
        guard data.count >= Self.headerSize, data.prefix(4).elementsEqual(Self.magic) else {
            throw ImageCacheError(.invalidDiskRepresentation, reason: "no PixelImage header in \(data.count) bytes")
        }
        let (width, height, scaleBits) = data.withUnsafeBytes { bytes in
            (
                UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self)),
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            )
        }
        do {
            try self.init(
                width: Int(width),
                height: Int(height),
                scale: Double(bitPattern: scaleBits),
                pixels: [UInt8](data.dropFirst(Self.headerSize))
            )
        } catch {
            throw ImageCacheError(.invalidDiskRepresentation, reason: error.reason)
        }
    }
}
