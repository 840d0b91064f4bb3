public import CourierImageCache

extension PixelImage {
    /// The image shrunk to fit inside `width` × `height`, its aspect ratio kept; the image itself
    /// when it already fits.
    ///
    /// Each target pixel is the average of the source pixels it covers, weighted by their alpha
    /// (premultiplied averaging), so transparent pixels do not darken the edges of opaque ones. An
    /// area average is what a thumbnail wants: no source pixel is skipped, so fine detail does not
    /// alias into moiré as with nearest-neighbour sampling.
    ///
    /// ```swift
    /// let thumbnail = try image.thumbnail(fitting: 128, 128)
    /// let png = try PNGEncoder().encode(thumbnail)
    /// ```
    /// - Parameters:
    ///   - width: The largest width, at least 1.
    ///   - height: The largest height, at least 1.
    /// - Returns: The thumbnail, at the same scale.
    /// - Throws: `ImageCacheError` when the size is not positive.
    public func thumbnail(fitting width: Int, _ height: Int) throws(ImageCacheError) -> PixelImage {
        guard width > 0, height > 0 else {
            throw ImageCacheError(.invalidPixelBuffer, reason: "a thumbnail of \(width) × \(height) pixels")
        }
        guard self.width > width || self.height > height else { return self }
        let factor = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let targetWidth = max(1, Int((Double(self.width) * factor).rounded()))
        let targetHeight = max(1, Int((Double(self.height) * factor).rounded()))
        var output = [UInt8](repeating: 0, count: targetWidth * targetHeight * 4)
        for y in 0..<targetHeight {
            let top = y * self.height / targetHeight
            let bottom = max(top + 1, (y + 1) * self.height / targetHeight)
            for x in 0..<targetWidth {
                let left = x * self.width / targetWidth
                let right = max(left + 1, (x + 1) * self.width / targetWidth)
                var red = 0
                var green = 0
                var blue = 0
                var alpha = 0
                for sourceY in top..<bottom {
                    var index = (sourceY * self.width + left) * 4
                    for _ in left..<right {
                        let weight = Int(pixels[index + 3])
                        red += Int(pixels[index]) * weight
                        green += Int(pixels[index + 1]) * weight
                        blue += Int(pixels[index + 2]) * weight
                        alpha += weight
                        index += 4
                    }
                }
                let count = (bottom - top) * (right - left)
                let target = (y * targetWidth + x) * 4
                if alpha > 0 {
                    output[target] = UInt8((red + alpha / 2) / alpha)
                    output[target + 1] = UInt8((green + alpha / 2) / alpha)
                    output[target + 2] = UInt8((blue + alpha / 2) / alpha)
                }
                output[target + 3] = UInt8((alpha + count / 2) / count)
            }
        }
        return try PixelImage(width: targetWidth, height: targetHeight, scale: scale, pixels: output)
    }
}
