import Foundation

/// Where the 1 GiB transfer tests put their files: the temporary folder when its filesystem has
/// 1.5 GiB free, else `/dev/shm`; `nil` (the tests are skipped, with the reason printed) when neither has.
enum BigTransferSpace {
    static let requiredBytes: UInt64 = 3 << 29

    static let directory: String? = {
        let candidates = [FileManager.default.temporaryDirectory.path, "/dev/shm"]
        var seen: [String] = []
        for path in candidates {
            guard let free = freeBytes(path) else {
                seen.append("\(path): statvfs failed")
                continue
            }
            if free >= requiredBytes {
                print("big transfers use \(path) (\(free >> 20) MiB free)")
                return path
            }
            seen.append("\(path): \(free >> 20) MiB free")
        }
        print("skipping the 1 GiB transfer tests: no filesystem with 1536 MiB free (\(seen.joined(separator: "; ")))")
        return nil
    }()

    static func freeBytes(_ path: String) -> UInt64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize)
    }
}
