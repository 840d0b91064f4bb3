import CourierHTTP
import CourierSerialization
import Foundation

/// Temporary files for multipart tests, removed by the caller with `remove(_:)`.
enum MultipartTestFiles {
    static func make(_ contents: Data, name: String = "part.bin") throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-multipart-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(name).path
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }
}

/// Reads a body to the end with a synchronous reader; pacing is not expected here.
func readMultipartBody(_ body: HTTPBody, bufferSize: Int = 65_536) throws -> Data {
    guard let reader = try body.makeReader() else { return Data() }
    return try readMultipartReader(reader, bufferSize: bufferSize)
}

func readMultipartReader(_ reader: any HTTPBodyReader, bufferSize: Int = 65_536) throws -> Data {
    var result = Data()
    var buffer = [UInt8](repeating: 0, count: bufferSize)
    while true {
        switch try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }) {
        case .bytes(let count): result.append(contentsOf: buffer[..<count])
        case .end: return result
        case .paused: throw MultipartTestFailure("unexpected pause")
        }
    }
}

struct MultipartTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A replayable source that produces `actual` while announcing `declared` bytes, optionally pausing
/// once before its first chunk and handing out at most `chunk` bytes per read.
struct MultipartTestSource: HTTPBodySource {
    let actual: Data
    let declared: Int64?
    var chunk = 3
    var pauseFirst = false

    var length: Int64? { declared }

    func makeReader() throws -> any HTTPBodyReader {
        Reader(data: actual, chunk: chunk, pause: pauseFirst)
    }

    final class Reader: HTTPBodyReader {
        let data: Data
        let chunk: Int
        var pause: Bool
        var position = 0

        init(data: Data, chunk: Int, pause: Bool) {
            self.data = data
            self.chunk = chunk
            self.pause = pause
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> HTTPBodyReadResult {
            if pause {
                pause = false
                // Long enough that a loaded machine still reads again before it passes.
                return .paused(until: .now + .milliseconds(250))
            }
            guard position < data.count else { return .end }
            let count = min(buffer.count, chunk, data.count - position)
            for offset in 0..<count { buffer[offset] = data[data.startIndex + position + offset] }
            position += count
            return .bytes(count)
        }

        func rewind() throws { position = 0 }
    }
}

/// A small multipart parser for tests: splits a body on its delimiters and each part into header
/// lines and bytes, rejecting anything that breaks the layout AFNetworking writes.
enum MultipartTestParser {
    struct Part: Equatable {
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        static func == (lhs: Part, rhs: Part) -> Bool {
            lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
        }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    static func parse(_ data: Data, boundary: String) throws -> [Part] {
        let body = [UInt8](data)
        let opening = Array("--\(boundary)\r\n".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        guard body.starts(with: opening) else { throw MultipartTestFailure("body does not open with --boundary CRLF") }
        var parts: [Part] = []
        var start = opening.count
        while true {
            guard let next = find(delimiter, in: body, from: start) else {
                throw MultipartTestFailure("no delimiter after offset \(start)")
            }
            parts.append(try parsePart(Array(body[start..<next])))
            let after = next + delimiter.count
            let rest = body[after...]
            if rest.starts(with: Array("\r\n".utf8)) {
                start = after + 2
            } else if Array(rest) == Array("--\r\n".utf8) {
                return parts
            } else {
                throw MultipartTestFailure("bad bytes after a delimiter at \(after)")
            }
        }
    }

    private static func parsePart(_ bytes: [UInt8]) throws -> Part {
        // A part without headers starts with the blank line itself.
        guard let blank = bytes.starts(with: [13, 10]) ? -2 : find(Array("\r\n\r\n".utf8), in: bytes, from: 0)
        else { throw MultipartTestFailure("a part has no blank line") }
        var headers: [(String, String)] = []
        if blank >= 0 {
            let text = String(decoding: bytes[..<blank], as: UTF8.self)
            for line in text.components(separatedBy: "\r\n") {
                guard let colon = line.range(of: ": ") else { throw MultipartTestFailure("bad header line \(line)") }
                headers.append((String(line[..<colon.lowerBound]), String(line[colon.upperBound...])))
            }
        }
        return Part(headers: headers, body: Array(bytes[(blank + 4)...]))
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
