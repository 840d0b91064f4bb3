internal import CourierHTTP
internal import FoundationEssentials

/// The bytes a ``DiskCacheStore`` writes for an entry, and the checked reading back.
///
/// Layout, big-endian: the magic `CHC1`; the request and response times as the bit patterns of
/// their seconds since 1970; the status (2 bytes) and version (1 byte); the URL; the header
/// count and each name and value; the varying-field count and each name, a presence byte and the
/// value; the body. Strings and the body are a 4-byte length and the bytes. The byte store below
/// already rejects truncated and corrupt files by their checksum; reading still checks every length,
/// so bytes it did not write (another version's) are a miss, never a crash.
enum HTTPCacheEntryCoding {
    private static let magic = Array("CHC1".utf8)

    static func encode(_ entry: HTTPCacheEntry) -> Data {
        var bytes = magic
        append(entry.requestTime.timeIntervalSince1970.bitPattern, to: &bytes)
        append(entry.responseTime.timeIntervalSince1970.bitPattern, to: &bytes)
        append(UInt16(clamping: entry.response.status.code), to: &bytes)
        bytes.append(versionCode(entry.response.version))
        append(entry.response.url?.absoluteString ?? "", to: &bytes)
        append(UInt32(entry.response.headers.count), to: &bytes)
        for field in entry.response.headers {
            append(field.name, to: &bytes)
            append(field.value, to: &bytes)
        }
        append(UInt32(entry.varyingRequestFields.count), to: &bytes)
        for field in entry.varyingRequestFields {
            append(field.name, to: &bytes)
            bytes.append(field.value == nil ? 0 : 1)
            append(field.value ?? "", to: &bytes)
        }
        append(UInt32(entry.body.count), to: &bytes)
        bytes.append(contentsOf: entry.body)
        return Data(bytes)
    }

    /// The entry, or `nil` when the bytes are not one this coding wrote.
    static func decode(_ data: Data) -> HTTPCacheEntry? {
        var reader = Reader(bytes: [UInt8](data))
        guard reader.take(magic.count).map(Array.init) == magic,
            let requestTime = reader.integer(UInt64.self), let responseTime = reader.integer(UInt64.self),
            let status = reader.integer(UInt16.self), let versionByte = reader.take(1)?.first,
            let version = version(versionByte), let url = reader.string(),
            let headerCount = reader.integer(UInt32.self)
        else { return nil }
        var headers = HTTPHeaders()
        for _ in 0..<headerCount {
            guard let name = reader.string(), let value = reader.string(),
                let field = try? HTTPHeaders.Field(name: name, value: value)
            else { return nil }
            headers.add(field)
        }
        guard let varyCount = reader.integer(UInt32.self) else { return nil }
        var varying: [HTTPCacheEntry.VaryingField] = []
        for _ in 0..<varyCount {
            guard let name = reader.string(), let present = reader.take(1)?.first, let value = reader.string() else {
                return nil
            }
            varying.append(HTTPCacheEntry.VaryingField(name: name, value: present == 0 ? nil : value))
        }
        guard let bodyLength = reader.integer(UInt32.self), let body = reader.take(Int(bodyLength)), reader.isAtEnd
        else { return nil }
        return HTTPCacheEntry(
            response: HTTPResponse(
                status: HTTPStatus(code: Int(status)),
                headers: headers,
                url: url.isEmpty ? nil : URL(string: url),
                version: version
            ),
            body: Data(body),
            requestTime: Date(timeIntervalSince1970: Double(bitPattern: requestTime)),
            responseTime: Date(timeIntervalSince1970: Double(bitPattern: responseTime)),
            varyingRequestFields: varying
        )
    }

    private static func versionCode(_ version: HTTPResponse.Version) -> UInt8 {
        switch version {
        case .http1_0: 10
        case .http1_1: 11
        case .http2: 20
        case .http3: 30
        }
    }

    private static func version(_ code: UInt8) -> HTTPResponse.Version? {
        switch code {
        case 10: .http1_0
        case 11: .http1_1
        case 20: .http2
        case 30: .http3
        default: nil
        }
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private static func append(_ text: String, to bytes: inout [UInt8]) {
        append(UInt32(text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    /// Reads forward through the bytes; every read checks the bytes left first.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func integer<Value: FixedWidthInteger>(_: Value.Type) -> Value? {
            guard let slice = take(MemoryLayout<Value>.size) else { return nil }
            return slice.reduce(Value.zero) { $0 << 8 | Value($1) }
        }

        mutating func string() -> String? {
            guard let length = integer(UInt32.self), let slice = take(Int(length)) else { return nil }
            return String(validating: slice, as: UTF8.self)
        }
    }
}
