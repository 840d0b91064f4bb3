internal import CourierLocking
internal import FoundationEssentials

/// An async sequence of chunks for a multipart part, handed out once.
///
/// Copies of a form share this box, so whichever copy makes its body first consumes the sequence;
/// a later attempt gets a typed error instead of an empty or half-read part.
final class MultipartOneShotStream: Sendable {
    let length: Int64
    private let sequence: Lock<(any AsyncSequence<Data, any Error> & Sendable)?>

    init(_ sequence: some AsyncSequence<Data, any Error> & Sendable, length: Int64) {
        self.length = length
        self.sequence = Lock(sequence)
    }

    /// The sequence, the first time only.
    func take() throws(SerializationError) -> any AsyncSequence<Data, any Error> & Sendable {
        let taken = sequence.withLock { stored in
            defer { stored = nil }
            return stored
        }
        guard let taken else {
            throw MultipartErrors.streamFailed(
                "a one-shot stream part was already consumed by an earlier body; append a stream source to replay it"
            )
        }
        return taken
    }
}
