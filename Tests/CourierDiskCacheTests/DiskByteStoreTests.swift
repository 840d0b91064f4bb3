import CourierDiskCache
import CourierTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct DiskByteStoreTests {
    @Test func storesAndReadsBackValues() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)

        try store.store(Data("hello".utf8), forKey: "greeting")
        try store.store(Data(), forKey: "empty")

        #expect(store.value(forKey: "greeting") == Data("hello".utf8))
        #expect(store.value(forKey: "empty") == Data())
        #expect(store.value(forKey: "missing") == nil)
        #expect(store.currentSize() == (24 + 8 + 5) + (24 + 5))
    }

    @Test func replacesAValue() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)

        try store.store(Data("first".utf8), forKey: "k")
        try store.store(Data("second".utf8), forKey: "k")

        #expect(store.value(forKey: "k") == Data("second".utf8))
        #expect(TemporaryDirectory.entryFiles(in: folder.path).count == 1)
    }

    @Test func createsMissingParentsAndRejectsAFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let nested = folder.path + "/a/b/c"
        _ = try DiskByteStore(directory: nested)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: nested, isDirectory: &isDirectory) && isDirectory.boolValue)

        let file = folder.path + "/plain"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let error = #expect(throws: DiskCacheError.self) { try DiskByteStore(directory: file) }
        #expect(error?.code == .directoryUnavailable)
    }

    @Test func truncatedEntriesAreMissesAndAreRemoved() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)
        try store.store(Data("a value of some length".utf8), forKey: "key")
        let file = try folder.path + "/" + #require(TemporaryDirectory.entryFiles(in: folder.path).first)
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))

        // Every shorter length, header included, down to an empty file.
        for length in 0..<whole.count {
            try whole.prefix(length).write(to: URL(fileURLWithPath: file))
            #expect(store.value(forKey: "key") == nil, "length \(length)")
            #expect(!FileManager.default.fileExists(atPath: file), "length \(length) was not removed")
        }
        // One byte too many is damage too.
        try (whole + Data([0])).write(to: URL(fileURLWithPath: file))
        #expect(store.value(forKey: "key") == nil)
        #expect(!FileManager.default.fileExists(atPath: file))
    }

    @Test func flippedBitsAreMissesAndAreRemoved() throws {
        let seed = SeededRandom.seed()
        print("seed: \(seed)")
        var random = SeededRandom(seed: seed)
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)
        let value = Data((0..<300).map { _ in UInt8.random(in: 0...255, using: &random) })

        for _ in 0..<200 {
            try store.store(value, forKey: "key")
            let file = try folder.path + "/" + #require(TemporaryDirectory.entryFiles(in: folder.path).first)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            let position = Int.random(in: 0..<bytes.count, using: &random)
            bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            try bytes.write(to: URL(fileURLWithPath: file))

            #expect(store.value(forKey: "key") == nil, "bit flipped at byte \(position)")
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test func anEntryForACollidingKeyIsAMissAndIsKept() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)
        try store.store(Data("mine".utf8), forKey: "one")
        let oneFile = try #require(TemporaryDirectory.entryFiles(in: folder.path).first)
        try store.store(Data("theirs".utf8), forKey: "two")
        let twoFile = try #require(TemporaryDirectory.entryFiles(in: folder.path).first { $0 != oneFile })
        // Make "two"'s file name hold "one"'s intact entry, as a hash collision would.
        #expect(rename(folder.path + "/" + oneFile, folder.path + "/" + twoFile) == 0)

        #expect(store.value(forKey: "two") == nil)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/" + twoFile))
    }

    @Test func removesOneValueOrAll() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)
        try store.store(Data("1".utf8), forKey: "a")
        try store.store(Data("2".utf8), forKey: "b")

        #expect(store.removeValue(forKey: "a"))
        #expect(!store.removeValue(forKey: "a"))
        #expect(store.value(forKey: "a") == nil)
        #expect(store.value(forKey: "b") == Data("2".utf8))
        store.removeAll()
        #expect(store.value(forKey: "b") == nil)
        #expect(store.currentSize() == 0)
    }

    @Test func sweepsLeastRecentlyUsedEntriesFirst() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // Each entry file: 24-byte header + 1-byte key + 1000 bytes = 1025. Three fit in 3100,
        // two in 2100.
        let store = try DiskByteStore(
            directory: folder.path,
            configuration: .init(sizeLimit: 3100, sizeAfterSweep: 2100)
        )
        let value = Data(repeating: 7, count: 1000)
        for key in ["a", "b", "c"] { try store.store(value, forKey: key) }
        #expect(store.currentSize() == 3075)
        #expect(store.value(forKey: "a") != nil)  // now the most recently used but for d

        try store.store(value, forKey: "d")

        #expect(store.value(forKey: "b") == nil)
        #expect(store.value(forKey: "c") == nil)
        #expect(store.value(forKey: "a") == value)
        #expect(store.value(forKey: "d") == value)
        #expect(store.currentSize() == 2050)
    }

    @Test func aSweepUnderLimitRemovesNothing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path, configuration: .init(sizeLimit: 3075, sizeAfterSweep: 0))
        for key in ["a", "b", "c"] { try store.store(Data(repeating: 1, count: 1000), forKey: key) }

        #expect(store.sweep())
        #expect(store.currentSize() == 3075)
    }

    @Test func aSweepLeavesTheWorkToAHolderOfTheLock() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path, configuration: .init(sizeLimit: 0, sizeAfterSweep: 0))
        try store.store(Data("x".utf8), forKey: "a")  // swept away at once: the limit is 0
        #expect(store.currentSize() == 0)
        let holder = open(folder.path + "/.lock", O_RDWR | O_CREAT, 0o600)
        #expect(holder >= 0)
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)

        try store.store(Data("y".utf8), forKey: "b")
        let swept = store.sweep()

        #expect(!swept)
        #expect(store.value(forKey: "b") == Data("y".utf8))
        close(holder)
        #expect(store.sweep())
        #expect(store.value(forKey: "b") == nil)
    }

    @Test func aSweepRemovesAbandonedTemporaryFilesOnly() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)
        let old = folder.path + "/.tmp-1-1-dead"
        let fresh = folder.path + "/.tmp-1-2-live"
        try Data("partial".utf8).write(to: URL(fileURLWithPath: old))
        try Data("partial".utf8).write(to: URL(fileURLWithPath: fresh))
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, old, &times, 0) == 0)

        store.sweep()

        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: fresh))
    }

    @Test func concurrentWritersAndReadersNeverSeeAMixedValue() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)
        let values = (0..<8).map { Data(repeating: UInt8($0), count: 4096 + $0) }

        let bad = try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    for round in 0..<200 { try store.store(values[(round + writer) % values.count], forKey: "shared") }
                    return 0
                }
            }
            group.addTask {
                var bad = 0
                for _ in 0..<400 {
                    if let value = store.value(forKey: "shared"), !values.contains(value) { bad += 1 }
                }
                return bad
            }
            return try await group.reduce(0, +)
        }

        #expect(bad == 0)
        #expect(TemporaryDirectory.entryFiles(in: folder.path).count == 1)
    }

    @Test func rejectsAnOverlongKey() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let store = try DiskByteStore(directory: folder.path)
        let error = #expect(throws: DiskCacheError.self) {
            try store.store(Data(), forKey: String(repeating: "k", count: (1 << 16) + 1))
        }
        #expect(error?.code == .entryTooLarge)
    }
}

extension DiskByteStoreTests {
    @Test func aFileLargerThanTheLimitIsNeverReadAndIsRemoved() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // A store with a larger limit writes an intact entry that this store's limit cannot hold
        // (over 1000 bytes plus the largest header).
        let writer = try DiskByteStore(directory: folder.path, configuration: .init(sizeLimit: 1 << 20))
        try writer.store(Data(repeating: 1, count: 70_000), forKey: "key")
        let reader = try DiskByteStore(directory: folder.path, configuration: .init(sizeLimit: 1000))

        #expect(reader.value(forKey: "key") == nil)
        #expect(TemporaryDirectory.entryFiles(in: folder.path).isEmpty)
    }
}
