public import CourierHTTP
internal import FoundationEssentials

extension MultipartFormData {
    /// Makes a replayable body that streams the form.
    ///
    /// Files are not read now. When the in-memory parts add up to more than ``memoryThreshold`` they
    /// are copied to a temporary file, deleted when the last copy of the body is released. An empty
    /// form gives an empty body.
    ///
    /// ```swift
    /// let body = try form.makeBody()
    /// body.length == form.contentLength  // true
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/multipartStreamFailed``
    ///   when the form has a one-shot stream part (call the async `makeBody()`, which may suspend while
    ///   the stream is read), or when the temporary file cannot be written.
    public func makeBody() throws(SerializationError) -> HTTPBody {
        guard !isEmpty else { return .empty }
        return HTTPBody(source: try makeBodySource())
    }

    /// Makes a replayable body, first copying any one-shot stream parts to a temporary file.
    ///
    /// The copy verifies each stream's declared length, so a stream that ends short or runs long
    /// fails here with a typed error instead of sending a wrong body. Streams are awaited, never
    /// waited for on a blocked thread; the temporary file is written in chunks as they arrive.
    ///
    /// ```swift
    /// try form.append(stream: upload, length: size, name: "file", fileName: "a.bin", mimeType: "application/octet-stream")
    /// let body = try await form.makeBody()
    /// ```
    /// - Throws: ``SerializationError`` with code ``SerializationError/Code/multipartStreamFailed``
    ///   when a stream fails, has the wrong length or was already consumed, or the temporary file
    ///   cannot be written.
    public func makeBody() async throws(SerializationError) -> HTTPBody {
        guard !isEmpty else { return .empty }
        return HTTPBody(source: try await makeBodySource())
    }

    /// Makes the body's source, for callers that want ``MultipartBodySource/spillFilePath`` or wrap it.
    ///
    /// ```swift
    /// let source = try form.makeBodySource()
    /// let body = HTTPBody(source: source)
    /// ```
    /// - Throws: As the synchronous `makeBody()`.
    public func makeBodySource() throws(SerializationError) -> MultipartBodySource {
        var assembler = MultipartBodyAssembler(boundary: boundary, throttle: throttle)
        try assembler.add(parts, spillingData: inMemoryBytes > memoryThreshold, streams: [:])
        return assembler.finish()
    }

    /// Makes the body's source, copying one-shot stream parts to a temporary file first.
    ///
    /// ```swift
    /// let source = try await form.makeBodySource()
    /// ```
    /// - Throws: As the async `makeBody()`.
    public func makeBodySource() async throws(SerializationError) -> MultipartBodySource {
        try await makeBodySource(spillingData: inMemoryBytes > memoryThreshold)
    }

    func makeBodySource(spillingData: Bool) async throws(SerializationError) -> MultipartBodySource {
        var assembler = MultipartBodyAssembler(boundary: boundary, throttle: throttle)
        var streams: [Int: MultipartSegment] = [:]
        for (index, part) in parts.enumerated() {
            if case .oneShot(let stream) = part.body {
                streams[index] = try await assembler.spill(stream)
            }
        }
        try assembler.add(parts, spillingData: spillingData, streams: streams)
        return assembler.finish()
    }

    /// Sets the request's body, `Content-Type` and `Content-Length` from the form.
    ///
    /// As in AFNetworking, an empty form leaves the request untouched.
    ///
    /// ```swift
    /// var request = HTTPRequest(method: .post, url: uploadURL)
    /// try form.apply(to: &request)
    /// ```
    /// - Throws: As the synchronous `makeBody()`.
    public func apply(to request: inout HTTPRequest) throws(SerializationError) {
        guard !isEmpty else { return }
        let body = try makeBody()
        try setHeaders(of: &request)
        request.body = body
    }

    /// Sets the request's body, `Content-Type` and `Content-Length`, reading one-shot streams first.
    ///
    /// ```swift
    /// try await form.apply(to: &request)
    /// ```
    /// - Throws: As the async `makeBody()`.
    public func apply(to request: inout HTTPRequest) async throws(SerializationError) {
        guard !isEmpty else { return }
        let body = try await makeBody()
        try setHeaders(of: &request)
        request.body = body
    }

    func setHeaders(of request: inout HTTPRequest) throws(SerializationError) {
        do {
            try request.headers.set(name: "Content-Type", value: contentType)
            try request.headers.set(name: "Content-Length", value: String(contentLength))
        } catch {
            throw MultipartErrors.invalidPart("the form's headers are invalid", underlying: error)
        }
    }

    /// The bytes of part bodies held in memory, which ``memoryThreshold`` limits.
    var inMemoryBytes: Int64 {
        parts.reduce(0) { total, part in
            if case .data(let data) = part.body { return total + Int64(data.count) }
            return total
        }
    }
}

/// Turns parts into body segments: delimiters and headers are gathered into byte runs, big in-memory
/// bodies and one-shot streams go to a temporary file.
struct MultipartBodyAssembler {
    /// In-memory bodies up to this size are copied next to the delimiters, so that a form of many
    /// small fields reads as one run of bytes; larger ones keep their own storage.
    static let inlineLimit = 16 * 1024

    private let boundary: String
    private let throttle: MultipartThrottle?
    private var segments: [MultipartSegment] = []
    private var pending = Data()
    private var spillFile: MultipartSpillFile?
    private var spillLength: Int64 = 0

    init(boundary: String, throttle: MultipartThrottle?) {
        self.boundary = boundary
        self.throttle = throttle
    }

    /// Copies a one-shot stream to the temporary file and returns the segment that replays it.
    mutating func spill(_ stream: MultipartOneShotStream) async throws(SerializationError) -> MultipartSegment {
        let file = try ensureSpillFile()
        let start = spillLength
        var iterator = try stream.take().makeAsyncIterator()
        var copied: Int64 = 0
        while true {
            let chunk: Data?
            do {
                chunk = try await iterator.next(isolation: #isolation)
            } catch {
                throw MultipartErrors.streamFailed("a stream part failed after \(copied) bytes", underlying: error)
            }
            guard let chunk else { break }
            guard Int64(chunk.count) <= stream.length - copied else {
                throw MultipartErrors.streamFailed(
                    "a stream part produced more than its declared \(stream.length) bytes"
                )
            }
            try file.write(chunk)
            copied += Int64(chunk.count)
        }
        guard copied == stream.length else {
            throw MultipartErrors.streamFailed(
                "a stream part ended after \(copied) of its declared \(stream.length) bytes"
            )
        }
        spillLength += copied
        return .spilled(file, offset: start, length: copied)
    }

    /// Adds every part; `streams` holds the spilled segment of each one-shot stream part by index.
    mutating func add(
        _ parts: [MultipartPart],
        spillingData: Bool,
        streams: [Int: MultipartSegment]
    ) throws(SerializationError) {
        for (index, part) in parts.enumerated() {
            pending.append(contentsOf: (index == 0 ? "--" : "\r\n--").utf8)
            pending.append(contentsOf: boundary.utf8)
            pending.append(contentsOf: "\r\n".utf8)
            pending.append(part.headerBlock)
            switch part.body {
            case .data(let data):
                if spillingData && !data.isEmpty {
                    let file = try ensureSpillFile()
                    try file.write(data)
                    push(.spilled(file, offset: spillLength, length: Int64(data.count)))
                    spillLength += Int64(data.count)
                } else if data.count <= Self.inlineLimit {
                    pending.append(data)
                } else {
                    // Shares the form's storage instead of copying a large body next to it.
                    push(.bytes(data))
                }
            case .file(let path, let length):
                push(.file(path: path, length: length))
            case .source(let source, let length):
                push(.source(source, length: length))
            case .oneShot:
                guard let segment = streams[index] else {
                    throw MultipartErrors.streamFailed(
                        "the form has a one-shot stream part; make its body with the async makeBody()"
                    )
                }
                push(segment)
            }
        }
        if !parts.isEmpty {
            pending.append(contentsOf: "\r\n--".utf8)
            pending.append(contentsOf: boundary.utf8)
            pending.append(contentsOf: "--\r\n".utf8)
        }
    }

    mutating func finish() -> MultipartBodySource {
        if !pending.isEmpty { segments.append(.bytes(pending)) }
        pending = Data()
        return MultipartBodySource(segments: segments, spillFile: spillFile, throttle: throttle)
    }

    private mutating func push(_ segment: MultipartSegment) {
        if !pending.isEmpty { segments.append(.bytes(pending)) }
        pending = Data()
        segments.append(segment)
    }

    private mutating func ensureSpillFile() throws(SerializationError) -> MultipartSpillFile {
        if let spillFile { return spillFile }
        let file = try MultipartSpillFile.create()
        spillFile = file
        return file
    }
}
