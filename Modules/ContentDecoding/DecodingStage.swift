/// One coding's decompressor: turns a slice of input into at most `output.count` decoded bytes.
///
/// A stage never holds more than its library's working state (a window, a frame buffer): the input
/// it has not consumed stays with the caller, and it never writes past `output`.
protocol DecodingStage: AnyObject {
    /// Decodes from `input` into `output`; returns how many bytes of each were used. `(0, 0)` means
    /// that the stage needs more input (or is at its end).
    func decode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(ContentDecodingError) -> (consumed: Int, produced: Int)

    /// Whether the stream is complete: the last block or frame is decoded and all of it handed out.
    var isAtEnd: Bool { get }

    /// Starts a new stream with no memory of the previous one.
    func reset() throws(ContentDecodingError)
}
