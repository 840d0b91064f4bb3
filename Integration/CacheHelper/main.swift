import CourierDiskCache
import CourierImageCache
import Foundation

// A child process for the disk cache's tests: they set its environment and run several at once,
// which a test must never do to its own process.
//
//   where NAME                       the user cache folder NAME, from XDG_CACHE_HOME or HOME
//   image-put NAME ID WIDTH HEIGHT   a PixelImage under ID in DiskBackedImageCache(named: NAME)
//   image-get NAME ID                prints "WIDTHxHEIGHT sum=N" or "miss"
//   hammer DIR WRITER ROUNDS LIMIT   writes and reads shared keys in a store of LIMIT bytes and
//                                    prints "bad=N hits=N": a bad read is a value no writer wrote
//   read DIR KEY                     prints the value's length or "miss"

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// The value writer `writer` stores in `round` for `key`: self-describing, so a reader can check
/// it without knowing who wrote last.
func value(key: Int, writer: Int, round: Int) -> Data {
    let length = 512 + (key * 131 + round * 17) % 2048
    var bytes = [UInt8](repeating: 0, count: length)
    bytes[0] = UInt8(key)
    bytes[1] = UInt8(writer)
    bytes[2] = UInt8(truncatingIfNeeded: round)
    bytes[3] = UInt8(truncatingIfNeeded: round >> 8)
    for index in 4..<length { bytes[index] = UInt8(truncatingIfNeeded: index &* (key + 1) &+ writer &+ round) }
    return Data(bytes)
}

func isIntact(_ data: Data, key: Int) -> Bool {
    guard data.count >= 4, Int(data[0]) == key else { return false }
    let round = Int(data[2]) | Int(data[3]) << 8
    return data == value(key: key, writer: Int(data[1]), round: round)
}

func pixels(width: Int, height: Int) -> [UInt8] {
    (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "where" where arguments.count == 2:
        print(try CacheDirectory.userCacheDirectory(named: arguments[1]))
    case "image-put" where arguments.count == 5:
        guard let width = Int(arguments[3]), let height = Int(arguments[4]) else { fail("bad size") }
        let cache = try DiskBackedImageCache<PixelImage>(named: arguments[1])
        cache.add(
            try PixelImage(width: width, height: height, scale: 2, pixels: pixels(width: width, height: height)),
            withIdentifier: arguments[2]
        )
        print("stored in \(cache.disk.directory)")
    case "image-get" where arguments.count == 3:
        let cache = try DiskBackedImageCache<PixelImage>(named: arguments[1])
        if let image = cache.image(withIdentifier: arguments[2]) {
            let intact = image.pixels == pixels(width: image.width, height: image.height)
            print("\(image.width)x\(image.height) scale=\(image.scale) intact=\(intact)")
        } else {
            print("miss")
        }
    case "hammer" where arguments.count == 5:
        guard let writer = Int(arguments[2]), let rounds = Int(arguments[3]), let limit = Int(arguments[4]) else {
            fail("bad numbers")
        }
        let store = try DiskByteStore(
            directory: arguments[1],
            configuration: .init(sizeLimit: limit, sizeAfterSweep: limit / 2)
        )
        var bad = 0
        var hits = 0
        for round in 0..<rounds {
            let key = round % 16
            try store.store(value(key: key, writer: writer, round: round), forKey: "k\(key)")
            let probe = (round * 7 + writer) % 16
            if let data = store.value(forKey: "k\(probe)") {
                hits += 1
                if !isIntact(data, key: probe) { bad += 1 }
            }
        }
        print("bad=\(bad) hits=\(hits)")
    case "read" where arguments.count == 3:
        let store = try DiskByteStore(directory: arguments[1])
        print(store.value(forKey: arguments[2]).map { "\($0.count)" } ?? "miss")
    default:
        fail(
            "usage: where NAME | image-put NAME ID W H | image-get NAME ID | hammer DIR WRITER ROUNDS LIMIT | read DIR KEY"
        )
    }
} catch {
    fail("error: \(error)")
}
