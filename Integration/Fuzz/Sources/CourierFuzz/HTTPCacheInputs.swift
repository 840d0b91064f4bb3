import CourierHTTP
import FoundationEssentials

@testable import CourierHTTPCache

/// What the HTTP cache reads from strangers and from disk: a stored entry as the disk store reads
/// it back (the first byte chooses), else `Cache-Control` field values and HTTP dates from a
/// response, whose parse must also survive a round trip through the date formatter.
enum HTTPCacheInputs {
    static func run(_ data: Data) {
        guard let first = data.first else { return }
        let rest = data.dropFirst()
        if first % 2 == 0 {
            _ = HTTPCacheEntryCoding.decode(Data(rest))
            return
        }
        let text = String(decoding: rest, as: UTF8.self)
        if let headers = try? HTTPHeaders([("Cache-Control", text), ("Cache-Control", "max-age=" + text)]) {
            let control = CacheControl(headers)
            _ = control.seconds("max-age")
            _ = control.wellFormedSeconds("s-maxage")
            _ = control.has("no-store")
        }
        if let date = HTTPDate.parse(text) {
            let formatted = HTTPDate.format(date)
            guard HTTPDate.parse(formatted) == date else {
                fatalError("HTTP date round trip: \(text.debugDescription) → \(formatted) → another date")
            }
        }
    }
}
