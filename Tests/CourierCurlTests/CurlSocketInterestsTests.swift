import CCourierCurl
import Testing

@testable import CourierCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the loop polls for libcurl, and what it tells libcurl a poll found.
@Suite struct CurlSocketInterestsTests {
    private let wake: Int32 = 3

    @Test func theWakeUpDescriptorComesFirstAndStays() {
        var interests = CurlSocketInterests(wakeDescriptor: wake)
        interests.update(socket: 7, what: CURL_POLL_IN)
        interests.update(socket: 7, what: CURL_POLL_REMOVE)
        #expect(interests.descriptors.map(\.fd) == [wake])
        #expect(interests.descriptors[0].events == Int16(POLLIN))
        #expect(interests.curlSocketCount == 0)
    }

    @Test func eachRequestReplacesTheSocketsInterest() {
        var interests = CurlSocketInterests(wakeDescriptor: wake)
        interests.update(socket: 7, what: CURL_POLL_OUT)
        #expect(interests.events(of: 7) == Int16(POLLOUT))
        interests.update(socket: 7, what: CURL_POLL_IN)
        #expect(interests.events(of: 7) == Int16(POLLIN))
        interests.update(socket: 7, what: CURL_POLL_INOUT)
        #expect(interests.events(of: 7) == Int16(POLLIN | POLLOUT))
        #expect(interests.curlSocketCount == 1)
    }

    @Test func removingASocketKeepsTheOthersFindable() {
        var interests = CurlSocketInterests(wakeDescriptor: wake)
        for socket: Int32 in [7, 9, 11] { interests.update(socket: socket, what: CURL_POLL_IN) }
        interests.update(socket: 9, what: CURL_POLL_OUT)
        // The first one removed: the last moves into its place and must still be found.
        interests.update(socket: 7, what: CURL_POLL_REMOVE)
        #expect(interests.events(of: 7) == nil)
        #expect(interests.events(of: 11) == Int16(POLLIN))
        interests.update(socket: 11, what: CURL_POLL_OUT)
        #expect(interests.events(of: 11) == Int16(POLLOUT))
        #expect(interests.events(of: 9) == Int16(POLLOUT))
        // `CURL_POLL_NONE` asks for nothing yet; a socket never watched has nothing to remove.
        interests.update(socket: 9, what: CURL_POLL_NONE)
        interests.update(socket: 13, what: CURL_POLL_REMOVE)
        #expect(interests.descriptors.map(\.fd) == [wake, 11])
    }

    @Test func rawConnectionsJoinOnePollOnly() {
        var interests = CurlSocketInterests(wakeDescriptor: wake)
        interests.update(socket: 7, what: CURL_POLL_IN)
        interests.appendTemporary(socket: 20, events: Int16(POLLIN))
        interests.appendTemporary(socket: 21, events: Int16(POLLOUT))
        #expect(interests.descriptors.map(\.fd) == [wake, 7, 20, 21])
        #expect(interests.curlSocketCount == 1)
        interests.removeTemporaryDescriptors()
        #expect(interests.descriptors.map(\.fd) == [wake, 7])
    }

    @Test func aPollReportsWhatIsReady() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var interests = CurlSocketInterests(wakeDescriptor: ends[0])
        interests.update(socket: ends[1], what: CURL_POLL_OUT)
        #expect(interests.waitForReadiness(timeout: 0) == 1)
        #expect(interests.descriptors.map(\.revents) == [0, Int16(POLLOUT)])
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(interests.waitForReadiness(timeout: 0) == 2)
        #expect(interests.descriptors[0].revents & Int16(POLLIN) != 0)
    }

    @Test func readinessBecomesTheActionMask() {
        #expect(CurlSocketInterests.actionMask(revents: 0) == 0)
        #expect(CurlSocketInterests.actionMask(revents: Int16(POLLIN)) == CURL_CSELECT_IN)
        #expect(CurlSocketInterests.actionMask(revents: Int16(POLLOUT)) == CURL_CSELECT_OUT)
        #expect(CurlSocketInterests.actionMask(revents: Int16(POLLIN | POLLOUT)) == CURL_CSELECT_IN | CURL_CSELECT_OUT)
        // A hang-up is read (the read finds the end); an error is read and reported as one.
        #expect(CurlSocketInterests.actionMask(revents: Int16(POLLHUP)) == CURL_CSELECT_IN)
        #expect(CurlSocketInterests.actionMask(revents: Int16(POLLERR)) == CURL_CSELECT_IN | CURL_CSELECT_ERR)
    }
}
