import CCourierCurl
import Testing

@testable import CourierCurl

/// What the loop watches for libcurl, and what it tells libcurl a poll found.
@Suite struct CurlSocketInterestsTests {
    @Test func eachRequestReplacesTheSocketsInterest() {
        var interests = CurlSocketInterests()
        interests.update(socket: 7, what: CURL_POLL_OUT)
        #expect(interests.events == [7: Int16(CURL_WAIT_POLLOUT)])
        interests.update(socket: 7, what: CURL_POLL_IN)
        #expect(interests.events == [7: Int16(CURL_WAIT_POLLIN)])
        interests.update(socket: 7, what: CURL_POLL_INOUT)
        #expect(interests.events == [7: Int16(CURL_WAIT_POLLIN | CURL_WAIT_POLLOUT)])
    }

    @Test func removeAndNoneStopWatchingOnlyThatSocket() {
        var interests = CurlSocketInterests()
        interests.update(socket: 7, what: CURL_POLL_IN)
        interests.update(socket: 9, what: CURL_POLL_IN)
        interests.update(socket: 7, what: CURL_POLL_REMOVE)
        #expect(interests.events == [9: Int16(CURL_WAIT_POLLIN)])
        interests.update(socket: 9, what: CURL_POLL_NONE)
        #expect(interests.isEmpty)
        // A socket libcurl never asked about: nothing to remove, nothing breaks.
        interests.update(socket: 11, what: CURL_POLL_REMOVE)
        #expect(interests.isEmpty)
    }

    @Test func readinessBecomesTheActionMask() {
        #expect(CurlSocketInterests.actionMask(revents: 0) == 0)
        #expect(CurlSocketInterests.actionMask(revents: Int16(CURL_WAIT_POLLIN)) == CURL_CSELECT_IN)
        #expect(CurlSocketInterests.actionMask(revents: Int16(CURL_WAIT_POLLPRI)) == CURL_CSELECT_IN)
        #expect(CurlSocketInterests.actionMask(revents: Int16(CURL_WAIT_POLLOUT)) == CURL_CSELECT_OUT)
        let both = Int16(CURL_WAIT_POLLIN | CURL_WAIT_POLLOUT)
        #expect(CurlSocketInterests.actionMask(revents: both) == CURL_CSELECT_IN | CURL_CSELECT_OUT)
    }
}
