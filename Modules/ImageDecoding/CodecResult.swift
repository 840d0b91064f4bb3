internal import CCourierImageCodecs

/// Runs the shim's functions and turns their results into pixels, bytes or typed errors, freeing
/// what the shim allocated.
enum CodecResult {
    /// A decoder call: the result to fill, and the destination (`nil` to read the header only).
    typealias Decode = (UnsafeMutablePointer<courier_image_result>, UnsafeMutablePointer<UInt8>?, Int) ->
        courier_image_status

    /// Reads the header (the limits are checked there), then decodes straight into the array that
    /// becomes the image's storage: one buffer of pixels, never a copy. A second buffer that lives
    /// as long as the first doubles the memory touched per decode, and glibc then hands both back
    /// to the kernel at every free: measured, that cost a JPEG decode 12 of its 29 ms.
    static func decode(format: ImageFormat, _ decode: Decode) throws(ImageDecodingError) -> (
        width: Int, height: Int, pixels: [UInt8]
    ) {
        var header = courier_image_result()
        let status = decode(&header, nil, 0)
        guard status == COURIER_IMAGE_OK else { throw error(status, &header, format) }
        let count = Int(header.width) * Int(header.height) * 4
        var failure: ImageDecodingError?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var result = courier_image_result()
            let status = decode(&result, buffer.baseAddress, count)
            if status == COURIER_IMAGE_OK {
                initialized = count
            } else {
                // The bytes are plain integers: leaving them uninitialised on failure is safe.
                failure = error(status, &result, format)
                initialized = 0
            }
        }
        if let failure { throw failure }
        return (Int(header.width), Int(header.height), pixels)
    }

    /// Runs an encoder, whose output the shim allocates, and copies the file out.
    static func encode(
        format: ImageFormat,
        _ body: (UnsafeMutablePointer<courier_image_result>) -> courier_image_status
    ) throws(ImageDecodingError) -> [UInt8] {
        var result = courier_image_result()
        let status = body(&result)
        defer { courier_image_free(result.bytes) }
        guard status == COURIER_IMAGE_OK, let bytes = result.bytes else { throw error(status, &result, format) }
        return [UInt8](UnsafeBufferPointer(start: bytes, count: result.byte_count))
    }

    private static func error(
        _ status: courier_image_status,
        _ result: inout courier_image_result,
        _ format: ImageFormat
    ) -> ImageDecodingError {
        let reason = withUnsafeBytes(of: &result.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let code: ImageDecodingError.Code =
            switch status {
            case COURIER_IMAGE_TOO_LARGE: .tooLarge
            case COURIER_IMAGE_OUT_OF_MEMORY: .outOfMemory
            case COURIER_IMAGE_UNSUPPORTED: .unsupportedFormat
            default: .corrupt
            }
        return ImageDecodingError(code, format: format, reason: reason)
    }
}
