import CourierWebSocket

/// SHA-1 (FIPS 180-4), for checking `Sec-WebSocket-Accept` without linking a C library: the engine
/// passes OpenSSL's.
func sha1(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var data = message
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    let bitLength = UInt64(message.count) * 8
    for shift in stride(from: 56, through: 0, by: -8) {
        data.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    for chunk in stride(from: 0, to: data.count, by: 64) {
        var w = [UInt32](repeating: 0, count: 80)
        for i in 0..<16 {
            w[i] = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(data[chunk + i * 4 + $1]) }
        }
        for i in 16..<80 {
            let x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]
            w[i] = x << 1 | x >> 31
        }
        var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
        for i in 0..<80 {
            let (f, k): (UInt32, UInt32) =
                switch i {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
            let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[i]
            (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
        }
        h[0] &+= a
        h[1] &+= b
        h[2] &+= c
        h[3] &+= d
        h[4] &+= e
    }
    return h.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
}

/// An inflater double that "decompresses" by looking the whole compressed message up in a table
/// (RFC 7692's examples, whose real inflation is zlib's business and the engine's tests'), so that
/// the assembler's framing, tail and reset handling can be checked without zlib.
final class ScriptedInflater: WebSocketInflating {
    private let table: [[UInt8]: [UInt8]]
    private var input: [UInt8] = []
    private var output: [UInt8] = []
    private(set) var fed: [[UInt8]] = []
    private(set) var resets = 0
    private(set) var readLimits: [Int] = []

    init(_ table: [[UInt8]: [UInt8]]) { self.table = table }

    func feed(_ compressed: [UInt8]) {
        fed.append(compressed)
        input += compressed
        if let message = table[input] {
            output += message
            input = []
        }
    }

    func read(maximumCount: Int) throws -> [UInt8] {
        readLimits.append(maximumCount)
        let slice = Array(output.prefix(maximumCount))
        output.removeFirst(slice.count)
        return slice
    }

    func resetContext() throws { resets += 1 }
}

/// An inflater double whose output is its input with each byte repeated `factor` times (the tail
/// included), which makes streaming and bombs easy to build.
final class RepeatingInflater: WebSocketInflating {
    let factor: Int
    private var pending: [UInt8] = []
    private var produced = 0
    private(set) var totalRead = 0

    init(factor: Int) { self.factor = factor }

    func feed(_ compressed: [UInt8]) {
        if compressed == [0x00, 0x00, 0xFF, 0xFF] { return }
        pending += compressed
    }

    func read(maximumCount: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        while result.count < maximumCount, let byte = pending.first {
            let count = min(factor - produced, maximumCount - result.count)
            result += [UInt8](repeating: byte, count: count)
            produced += count
            if produced == factor {
                pending.removeFirst()
                produced = 0
            }
        }
        totalRead += result.count
        return result
    }

    func resetContext() throws {}
}

/// An inflater double that fails, as zlib does on corrupt data.
final class FailingInflater: WebSocketInflating {
    struct Corrupt: Error {}
    func feed(_ compressed: [UInt8]) {}
    func read(maximumCount: Int) throws -> [UInt8] { throw Corrupt() }
    func resetContext() throws {}
}

/// The payload of a client frame, unmasked, and its header fields, for checking what the encoder wrote.
func decodeClientFrame(_ bytes: [UInt8]) -> (first: UInt8, masked: Bool, key: [UInt8], payload: [UInt8])? {
    guard bytes.count >= 2 else { return nil }
    var length = Int(bytes[1] & 0x7F)
    var offset = 2
    if length == 126 {
        length = Int(bytes[2]) << 8 | Int(bytes[3])
        offset = 4
    } else if length == 127 {
        length = (2..<10).reduce(0) { $0 << 8 | Int(bytes[$1]) }
        offset = 10
    }
    let masked = bytes[1] & 0x80 != 0
    let key = masked ? Array(bytes[offset..<(offset + 4)]) : []
    if masked { offset += 4 }
    guard bytes.count == offset + length else { return nil }
    let payload = bytes[offset...].enumerated().map { masked ? $0.element ^ key[$0.offset & 3] : $0.element }
    return (bytes[0], masked, key, payload)
}

extension WebSocketError {
    /// The close code of a protocol violation, or `nil` for another error, for `#expect` comparisons.
    var violationCode: WebSocketCloseCode? {
        if case .protocolViolation(let code, _) = self { return code }
        return nil
    }
}

/// The error `body` throws, or `nil` when it returns.
func caught<T>(_ body: () throws(WebSocketError) -> T) -> WebSocketError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
