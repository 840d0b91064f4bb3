internal import CCourierImageCodecs
internal import CourierImageCache
internal import FoundationEssentials

/// Runs one shim function and turns its result into bytes or a typed error, freeing what the shim
/// allocated either way.
enum CodecResult {
    static func run(
        format: ImageFormat,
        _ body: (UnsafeMutablePointer<courier_image_result>) -> courier_image_status
    ) throws(ImageDecodingError) -> (width: Int, height: Int, bytes: [UInt8]) {
        var result = courier_image_result()
        let status = body(&result)
        defer { courier_image_free(result.bytes) }
        guard status == COURIER_IMAGE_OK, let bytes = result.bytes else {
            throw ImageDecodingError(code(for: status), format: format, reason: message(of: &result))
        }
        return (
            Int(result.width), Int(result.height), [UInt8](UnsafeBufferPointer(start: bytes, count: result.byte_count))
        )
    }

    private static func code(for status: courier_image_status) -> ImageDecodingError.Code {
        switch status {
        case COURIER_IMAGE_TOO_LARGE: .tooLarge
        case COURIER_IMAGE_OUT_OF_MEMORY: .outOfMemory
        case COURIER_IMAGE_UNSUPPORTED: .unsupportedFormat
        default: .corrupt
        }
    }

    private static func message(of result: inout courier_image_result) -> String {
        withUnsafeBytes(of: &result.message) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
