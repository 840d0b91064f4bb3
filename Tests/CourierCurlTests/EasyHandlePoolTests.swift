import CCourierCurl
import Testing

@testable import CourierCurl

@Suite struct EasyHandlePoolTests {
    private func handle() throws -> EasyHandlePool.Handle {
        EasyHandlePool.Handle(easy: try #require(curl_easy_init()), errorBuffer: .allocate(capacity: 256))
    }

    @Test func aHandleGoesOnlyToATransferOfItsCookieKind() throws {
        var pool = EasyHandlePool(capacity: 4)
        let withJar = try handle()
        let withoutJar = try handle()
        pool.put(withJar, sharedCookies: true)
        pool.put(withoutJar, sharedCookies: false)
        #expect(pool.take(sharedCookies: false)?.easy == withoutJar.easy)
        #expect(pool.take(sharedCookies: false) == nil)
        #expect(pool.take(sharedCookies: true)?.easy == withJar.easy)
        #expect(pool.take(sharedCookies: true) == nil)
        withJar.release()
        withoutJar.release()
    }

    @Test func keepsNoMoreThanItsCapacityOfEachKind() throws {
        var pool = EasyHandlePool(capacity: 2)
        let kept = [try handle(), try handle()]
        for handle in kept { pool.put(handle, sharedCookies: false) }
        pool.put(try handle(), sharedCookies: false)  // released at once: the pool is full
        pool.put(try handle(), sharedCookies: true)
        var taken: [EasyHandlePool.Handle] = []
        while let handle = pool.take(sharedCookies: false) { taken.append(handle) }
        #expect(Set(taken.map(\.easy)) == Set(kept.map(\.easy)))
        let withJar = pool.take(sharedCookies: true)
        #expect(withJar != nil)
        #expect(pool.take(sharedCookies: true) == nil)
        for handle in taken + [withJar].compactMap({ $0 }) { handle.release() }
    }
}
