import CCourierCurl
import CourierHTTP
import Testing

@testable import CourierCurl

@Suite struct HandleOptionTrailTests {
    @Test func optionsEveryTransferSetsOrThatCanBeUndoneKeepTheHandle() {
        var trail = HandleOptionTrail()
        for option in [
            CURLOPT_URL, CURLOPT_PRIVATE, CURLOPT_ERRORBUFFER, CURLOPT_CONNECTTIMEOUT_MS, CURLOPT_WRITEDATA,
            CURLOPT_HEADERDATA, CURLOPT_DEBUGDATA, CURLOPT_SHARE, CURLOPT_COOKIEFILE, CURLOPT_TIMEOUT_MS,
            CURLOPT_LOW_SPEED_LIMIT, CURLOPT_LOW_SPEED_TIME, CURLOPT_MAXFILESIZE_LARGE, CURLOPT_ACCEPT_ENCODING,
            CURLOPT_HTTPHEADER, CURLOPT_NOPROGRESS, CURLOPT_XFERINFODATA, CURLOPT_XFERINFOFUNCTION,
        ] {
            trail.record(option)
        }
        #expect(!trail.needsReset)
        #expect(trail.carried == [.acceptEncoding, .sharedCookieJar])
    }

    @Test func whatATransferKeepsFromTheHandleStaysCarried() {
        var trail = HandleOptionTrail()
        #expect(trail.carried.isEmpty)
        trail.keep(.sharedCookieJar)
        trail.record(CURLOPT_URL)
        #expect(trail.carried == .sharedCookieJar)
        #expect(!trail.needsReset)
    }

    @Test(arguments: [
        CURLOPT_CUSTOMREQUEST, CURLOPT_NOBODY, CURLOPT_POST, CURLOPT_READFUNCTION, CURLOPT_USERNAME,
        CURLOPT_PATH_AS_IS, CURLOPT_CONNECT_ONLY, CURLOPT_VERBOSE,
    ])
    func anyOtherOptionNeedsAReset(option: CURLoption) {
        var trail = HandleOptionTrail()
        trail.record(CURLOPT_URL)
        trail.record(option)
        #expect(trail.needsReset)
    }

    @Test func undoesWhatATransferSetOnARealHandle() throws {
        let easy = try #require(curl_easy_init())
        defer { curl_easy_cleanup(easy) }
        var trail = HandleOptionTrail()
        for option in [
            CURLOPT_TIMEOUT_MS, CURLOPT_LOW_SPEED_LIMIT, CURLOPT_MAXFILESIZE_LARGE, CURLOPT_ACCEPT_ENCODING,
            CURLOPT_HTTPHEADER, CURLOPT_NOPROGRESS, CURLOPT_COOKIEFILE,
        ] {
            trail.record(option)
        }
        #expect(trail.undo(on: easy))
    }
}
