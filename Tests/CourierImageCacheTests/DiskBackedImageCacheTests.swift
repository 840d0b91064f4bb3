import CourierDiskCache
import CourierHTTP
import CourierImageCache
import CourierLocking
import Foundation
import Testing

@Suite struct DiskBackedImageCacheTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-images-\(UUID().uuidString)")
        .path

    func image(_ seed: UInt8, width: Int = 4, height: Int = 3) throws -> PixelImage {
        try PixelImage(
            width: width,
            height: height,
            pixels: (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0) &+ seed }
        )
    }

    @Test func aNewMemoryTierIsFilledFromDisk() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = DiskBackedImageCache<PixelImage>(disk: try DiskByteStore(directory: folder))
        let stored = try image(1)
        first.add(stored, withIdentifier: "photo")

        let second = DiskBackedImageCache<PixelImage>(disk: try DiskByteStore(directory: folder))
        #expect(second.memory.count == 0)
        #expect(second.image(withIdentifier: "photo") == stored)
        #expect(second.memory.image(withIdentifier: "photo") == stored)
        #expect(second.image(withIdentifier: "other") == nil)
    }

    @Test func anEntryThatNoLongerDecodesIsAMissAndIsRemoved() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try DiskByteStore(directory: folder)
        try store.store(Data("not an image".utf8), forKey: "photo")
        let cache = DiskBackedImageCache<PixelImage>(disk: store)

        #expect(cache.image(withIdentifier: "photo") == nil)
        #expect(store.value(forKey: "photo") == nil)
    }

    @Test func removesFromBothTiers() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = DiskBackedImageCache<PixelImage>(disk: try DiskByteStore(directory: folder))
        let request = HTTPRequest(url: try #require(URL(string: "https://images.test/p.png")))
        cache.add(try image(1), for: request, withAdditionalIdentifier: "thumb")
        cache.add(try image(2), withIdentifier: "other")

        #expect(cache.removeImage(for: request, withAdditionalIdentifier: "thumb"))
        #expect(!cache.removeImage(for: request, withAdditionalIdentifier: "thumb"))
        #expect(
            cache.disk.value(forKey: ImageRequestKey.identifier(for: request, additionalIdentifier: "thumb")) == nil
        )
        #expect(cache.removeAllImages())
        #expect(!cache.removeAllImages())
        #expect(cache.disk.currentSize() == 0)
    }

    @Test func reportsAFailedDiskWriteAndKeepsTheImageInMemory() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try DiskByteStore(directory: folder)
        let errors = ErrorLog()
        let cache = DiskBackedImageCache<PixelImage>(disk: store, onDiskError: { errors.append($0) })
        // A key the store refuses.
        let key = String(repeating: "k", count: (1 << 16) + 1)

        cache.add(try image(3), withIdentifier: key)

        #expect(errors.codes == [.entryTooLarge])
        #expect(cache.memory.image(withIdentifier: key) == (try image(3)))
    }
}

/// Collects the errors a callback reports.
final class ErrorLog: Sendable {
    private let storage = Lock<[DiskCacheError]>([])
    func append(_ error: DiskCacheError) { storage.withLock { $0.append(error) } }
    var codes: [DiskCacheError.Code] { storage.withLock { $0.map(\.code) } }
}
