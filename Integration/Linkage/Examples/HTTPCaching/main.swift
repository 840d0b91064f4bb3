import Courier

let store = try DiskCacheStore(named: "com.example.app.http")  // ~/.cache/com.example.app.http
let client = try CourierClient { $0.session.cache = HTTPCache(store: store) }
for _ in 1...2 {
    let response = try await client.session.data(.get, "http://httpbin.org/cache/60")
    print(response.cacheDisposition.map { "\($0)" } ?? "no cache")
}
// miss, then hit: the second answer came from the disk cache without a transfer
