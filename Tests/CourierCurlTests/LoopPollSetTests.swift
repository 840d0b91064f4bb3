import CCourierCurl
import Testing

@testable import CourierCurl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the loop polls for libcurl, and what it tells libcurl a poll found.
@Suite struct LoopPollSetTests {
    private let wake: Int32 = 3

    @Test func theWakeUpDescriptorComesFirstAndStays() {
        var pollSet = LoopPollSet(wakeDescriptor: wake)
        pollSet.update(socket: 7, what: CURL_POLL_IN)
        pollSet.update(socket: 7, what: CURL_POLL_REMOVE)
        #expect(pollSet.descriptors.map(\.fd) == [wake])
        #expect(pollSet.descriptors[0].events == Int16(POLLIN))
        #expect(pollSet.curlSocketCount == 0)
    }

    @Test func eachRequestReplacesTheSocketsInterest() {
        var pollSet = LoopPollSet(wakeDescriptor: wake)
        pollSet.update(socket: 7, what: CURL_POLL_OUT)
        #expect(pollSet.events(of: 7) == Int16(POLLOUT))
        pollSet.update(socket: 7, what: CURL_POLL_IN)
        #expect(pollSet.events(of: 7) == Int16(POLLIN))
        pollSet.update(socket: 7, what: CURL_POLL_INOUT)
        #expect(pollSet.events(of: 7) == Int16(POLLIN | POLLOUT))
        #expect(pollSet.curlSocketCount == 1)
    }

    @Test func removingASocketKeepsTheOthersFindable() {
        var pollSet = LoopPollSet(wakeDescriptor: wake)
        for socket: Int32 in [7, 9, 11] { pollSet.update(socket: socket, what: CURL_POLL_IN) }
        pollSet.update(socket: 9, what: CURL_POLL_OUT)
        // The first one removed: the last moves into its place and must still be found.
        pollSet.update(socket: 7, what: CURL_POLL_REMOVE)
        #expect(pollSet.events(of: 7) == nil)
        #expect(pollSet.events(of: 11) == Int16(POLLIN))
        pollSet.update(socket: 11, what: CURL_POLL_OUT)
        #expect(pollSet.events(of: 11) == Int16(POLLOUT))
        #expect(pollSet.events(of: 9) == Int16(POLLOUT))
        // `CURL_POLL_NONE` asks for nothing yet; a socket never watched has nothing to remove.
        pollSet.update(socket: 9, what: CURL_POLL_NONE)
        pollSet.update(socket: 13, what: CURL_POLL_REMOVE)
        #expect(pollSet.descriptors.map(\.fd) == [wake, 11])
    }

    @Test func rawConnectionsJoinOnePollOnly() {
        var pollSet = LoopPollSet(wakeDescriptor: wake)
        pollSet.update(socket: 7, what: CURL_POLL_IN)
        pollSet.appendTemporary(socket: 20, events: Int16(POLLIN))
        pollSet.appendTemporary(socket: 21, events: Int16(POLLOUT))
        #expect(pollSet.descriptors.map(\.fd) == [wake, 7, 20, 21])
        #expect(pollSet.curlSocketCount == 1)
        pollSet.removeTemporaryDescriptors()
        #expect(pollSet.descriptors.map(\.fd) == [wake, 7])
    }

    @Test func aPollReportsWhatIsReady() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        var pollSet = LoopPollSet(wakeDescriptor: ends[0])
        pollSet.update(socket: ends[1], what: CURL_POLL_OUT)
        #expect(pollSet.waitForReadiness(timeout: 0) == 1)
        #expect(pollSet.descriptors.map(\.revents) == [0, Int16(POLLOUT)])
        var byte: UInt8 = 1
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(pollSet.waitForReadiness(timeout: 0) == 2)
        #expect(pollSet.descriptors[0].revents & Int16(POLLIN) != 0)
    }

    @Test func readinessBecomesTheActionMask() {
        #expect(LoopPollSet.actionMask(revents: 0) == 0)
        #expect(LoopPollSet.actionMask(revents: Int16(POLLIN)) == CURL_CSELECT_IN)
        #expect(LoopPollSet.actionMask(revents: Int16(POLLOUT)) == CURL_CSELECT_OUT)
        #expect(LoopPollSet.actionMask(revents: Int16(POLLIN | POLLOUT)) == CURL_CSELECT_IN | CURL_CSELECT_OUT)
        // A hang-up is read (the read finds the end); an error is read and reported as one.
        #expect(LoopPollSet.actionMask(revents: Int16(POLLHUP)) == CURL_CSELECT_IN)
        #expect(LoopPollSet.actionMask(revents: Int16(POLLERR)) == CURL_CSELECT_IN | CURL_CSELECT_ERR)
    }
}
