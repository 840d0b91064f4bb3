import CCourierCurl
import Testing

@testable import CourierCurl

@Suite struct EasyHandlePoolTests {
    private func handle() throws -> UnsafeMutableRawPointer {
        try #require(curl_easy_init())
    }

    @Test func aHandleGoesOnlyToATransferOfItsCookieKind() throws {
        var pool = EasyHandlePool(capacity: 4)
        let withJar = try handle()
        let withoutJar = try handle()
        pool.put(withJar, sharedCookies: true)
        pool.put(withoutJar, sharedCookies: false)
        #expect(pool.take(sharedCookies: false) == withoutJar)
        #expect(pool.take(sharedCookies: false) == nil)
        #expect(pool.take(sharedCookies: true) == withJar)
        #expect(pool.take(sharedCookies: true) == nil)
        curl_easy_cleanup(withJar)
        curl_easy_cleanup(withoutJar)
    }

    @Test func keepsNoMoreThanItsCapacityOfEachKind() throws {
        var pool = EasyHandlePool(capacity: 2)
        let kept = [try handle(), try handle()]
        for easy in kept { pool.put(easy, sharedCookies: false) }
        pool.put(try handle(), sharedCookies: false)  // cleaned up at once: the pool is full
        pool.put(try handle(), sharedCookies: true)
        var taken: [UnsafeMutableRawPointer] = []
        while let easy = pool.take(sharedCookies: false) { taken.append(easy) }
        #expect(Set(taken) == Set(kept))
        let withJar = pool.take(sharedCookies: true)
        #expect(withJar != nil)
        #expect(pool.take(sharedCookies: true) == nil)
        for easy in taken + [withJar].compactMap({ $0 }) { curl_easy_cleanup(easy) }
    }
}
