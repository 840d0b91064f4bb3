public import CourierHTTP
internal import FoundationEssentials

/// The replayable source behind a multipart body: each reader streams the form from its first byte.
///
/// Delimiters, header blocks and small in-memory parts are copied from memory; file parts are opened
/// only when the reader reaches them and are read in chunks, so a file of any size costs one buffer.
/// Parts that were spilled to a temporary file (see ``MultipartFormData/memoryThreshold``) are read
/// from it; the file lives as long as this source, any copy of it or any of its readers.
///
/// ```swift
/// let source = try form.makeBodySource()
/// var request = HTTPRequest(method: .post, url: url, body: HTTPBody(source: source))
/// ```
public struct MultipartBodySource: HTTPBodySource {
    let segments: [MultipartSegment]
    let spillFile: MultipartSpillFile?

    /// The exact number of bytes every reader produces; never `nil` for a multipart body.
    public let length: Int64?
    /// The pacing every reader applies, if any.
    public let throttle: MultipartThrottle?

    init(segments: [MultipartSegment], spillFile: MultipartSpillFile?, throttle: MultipartThrottle?) {
        self.segments = segments
        self.spillFile = spillFile
        self.throttle = throttle
        length = segments.reduce(0) { $0 + $1.length }
    }

    /// The temporary file that holds spilled parts, or `nil` when nothing was spilled.
    ///
    /// The file is deleted when the last copy of this source, and of every body and reader made from
    /// it, is released.
    public var spillFilePath: String? { spillFile?.path }

    /// Returns a reader positioned at the first byte, paced by ``throttle``.
    ///
    /// ```swift
    /// let reader = try source.makeReader()
    /// ```
    public func makeReader() throws -> any HTTPBodyReader {
        MultipartBodyReader(segments: segments, throttle: throttle)
    }

    /// A reader that ignores pacing, for copying the body to a file.
    func makeUnpacedReader() -> MultipartBodyReader {
        MultipartBodyReader(segments: segments, throttle: nil)
    }
}

/// A run of body bytes with one origin.
enum MultipartSegment: Sendable {
    /// Delimiters, header blocks and in-memory bodies.
    case bytes(Data)
    /// A caller's file; its size must still be `length` when it is read.
    case file(path: String, length: Int64)
    /// A range of the body's temporary file.
    case spilled(MultipartSpillFile, offset: Int64, length: Int64)
    /// A replayable source whose readers must produce exactly `length` bytes.
    case source(any HTTPBodySource, length: Int64)

    var length: Int64 {
        switch self {
        case .bytes(let data): Int64(data.count)
        case .file(_, let length): length
        case .spilled(_, _, let length): length
        case .source(_, let length): length
        }
    }
}
