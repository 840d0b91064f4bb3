import CourierDiskCache
import Foundation
import Testing

/// Two stores on one directory stand for two processes sharing a cache: neither sees the other's
/// writes in memory, so only what they share on disk can hold the limit.
@Suite struct DiskByteStoreSharedSizeTests {
    /// Each entry file: 24-byte header + 2-byte key + 974 bytes = 1000.
    static let value = Data(repeating: 3, count: 974)

    /// Two stores on `folder` that sweep from over 10,000 bytes down to 7,000.
    static func twoStores(on folder: TemporaryDirectory) throws -> (DiskByteStore, DiskByteStore) {
        let configuration = DiskByteStore.Configuration(sizeLimit: 10_000, sizeAfterSweep: 7_000)
        return try (
            DiskByteStore(directory: folder.path, configuration: configuration),
            DiskByteStore(directory: folder.path, configuration: configuration)
        )
    }

    @Test func twoStoresOnOneDirectoryKeepItUnderTheLimitAfterEveryWrite() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (first, second) = try Self.twoStores(on: folder)

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
        let (filler, other) = try Self.twoStores(on: folder)
        try other.store(Self.value, forKey: "o0")  // its first write counts the directory: 1000
        for index in 0..<9 { try filler.store(Self.value, forKey: "f\(index)") }
        #expect(filler.currentSize() == 10_000)

        // The eleventh entry takes the directory over its limit, though `other` wrote only two.
        try other.store(Self.value, forKey: "o1")

        #expect(other.currentSize() == 7_000)
    }

    @Test func aStoreCountsTheDirectoryOnItsFirstWriteRatherThanTrustADriftedRecord() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (earlier, later) = try Self.twoStores(on: folder)
        for index in 0..<9 { try earlier.store(Self.value, forKey: "e\(index)") }
        // As if writers had died between their renames and their record updates.
        try Data(repeating: 0, count: 8).write(to: URL(fileURLWithPath: folder.path + "/.size"))

        try later.store(Self.value, forKey: "l0")
        #expect(later.currentSize() == 10_000)
        try later.store(Self.value, forKey: "l1")

        #expect(later.currentSize() == 7_000)
    }

    @Test func aDamagedRecordMakesTheNextWriteCount() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let (first, second) = try Self.twoStores(on: folder)
        for index in 0..<5 { try first.store(Self.value, forKey: "a\(index)") }
        try second.store(Self.value, forKey: "b0")  // second has now counted the directory too
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.path + "/.size"))

        for index in 1..<5 { try second.store(Self.value, forKey: "b\(index)") }
        #expect(second.currentSize() == 10_000)
        try first.store(Self.value, forKey: "a5")

        #expect(first.currentSize() == 7_000)
    }

    /// "a0" to "c9": 30 distinct keys of two bytes.
    static func key(_ index: Int) -> String {
        String(UnicodeScalar(UInt8(97 + index / 10))) + "\(index % 10)"
    }
}
