import Foundation

/// Whether two files hold the same bytes, compared in 4 MiB steps so that neither is held in memory.
func filesHaveSameContents(_ first: String, _ second: String) throws -> Bool {
    let left = try FileHandle(forReadingFrom: URL(fileURLWithPath: first))
    let right = try FileHandle(forReadingFrom: URL(fileURLWithPath: second))
    defer {
        try? left.close()
        try? right.close()
    }
    while true {
        let a = try left.read(upToCount: 4 << 20) ?? Data()
        let b = try right.read(upToCount: 4 << 20) ?? Data()
        guard a == b else { return false }
        if a.isEmpty { return true }
    }
}
