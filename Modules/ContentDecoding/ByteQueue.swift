/// Bytes waiting to be decoded: appended at the back, consumed from the front.
struct ByteQueue {
    private var storage: [UInt8] = []
    private var start = 0

    var count: Int { storage.count - start }
    var isEmpty: Bool { start == storage.count }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        storage.append(contentsOf: bytes)
    }

    mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        compact()
        storage.append(contentsOf: bytes)
    }

    mutating func consume(_ count: Int) {
        start += count
        if start == storage.count {
            storage.removeAll(keepingCapacity: true)
            start = 0
        }
    }

    mutating func removeAll() {
        storage.removeAll(keepingCapacity: false)
        start = 0
    }

    /// The first byte not consumed yet, if any.
    var first: UInt8? { isEmpty ? nil : storage[start] }

    func withUnsafeBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(ContentDecodingError) -> Result
    ) throws(ContentDecodingError) -> Result {
        let start = start
        do {
            return try storage.withUnsafeBytes { bytes in
                try body(UnsafeRawBufferPointer(rebasing: bytes[start...]))
            }
        } catch let error as ContentDecodingError {
            throw error
        } catch {
            // `body` throws ContentDecodingError only; Array's rethrowing closure erases the type.
            throw ContentDecodingError(code: .libraryFailure, coding: nil, detail: "\(error)")
        }
    }

    /// Drops consumed bytes once they are the larger part of the storage, so that a long stream fed
    /// in small pieces does not grow the array.
    private mutating func compact() {
        if start > 0 && start >= storage.count / 2 {
            storage.removeFirst(start)
            start = 0
        }
    }
}
