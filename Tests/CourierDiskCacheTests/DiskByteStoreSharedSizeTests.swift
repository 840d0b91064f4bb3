import CourierDiskCache
import Foundation
import Testing

/// Two stores on one directory stand for two processes sharing a cache: neither sees the other's
/// writes in memory, so only what they share on disk can hold the limit.
@Suite struct DiskByteStoreSharedSizeTests {
    /// Each entry file: 24-byte header + 2-byte key + 974 bytes = 1000.
    static let value = Data(repeating: 3, count: 974)

    @Test func twoStoresOnOneDirectoryKeepItUnderTheLimitAfterEveryWrite() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let configuration = DiskByteStore.Configuration(sizeLimit: 10_000, sizeAfterSweep: 7_000)
        let first = try DiskByteStore(directory: folder.path, configuration: configuration)
        let second = try DiskByteStore(directory: folder.path, configuration: configuration)

        var sizes: [Int] = []
        for round in 0..<30 {
            let store = round.isMultiple(of: 2) ? first : second
            try store.store(Self.value, forKey: Self.key(round))
            sizes.append(first.currentSize())
        }

        #expect(sizes.allSatisfy { $0 <= 10_000 }, "sizes after each write: \(sizes)")
    }

    @Test func aStoreSweepsWhenAnotherStoreFilledTheDirectory() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let configuration = DiskByteStore.Configuration(sizeLimit: 10_000, sizeAfterSweep: 7_000)
        let filler = try DiskByteStore(directory: folder.path, configuration: configuration)
        let other = try DiskByteStore(directory: folder.path, configuration: configuration)
        try other.store(Self.value, forKey: "o0")  // its first write counts the directory: 1000
        for index in 0..<9 { try filler.store(Self.value, forKey: "f\(index)") }
        #expect(filler.currentSize() == 10_000)

        // The eleventh entry takes the directory over its limit, though `other` wrote only two.
        try other.store(Self.value, forKey: "o1")

        #expect(other.currentSize() == 7_000)
    }

    /// "a0" to "c9": 30 distinct keys of two bytes.
    static func key(_ index: Int) -> String {
        String(UnicodeScalar(UInt8(97 + index / 10))) + "\(index % 10)"
    }
}
