import Testing

@testable import CourierCurl

@Suite struct DownloadFileTests {
    @Test func parsesContentRange() {
        #expect(DownloadFile.parseContentRange("bytes 100-199/1000")! == (100, 199, 1000))
        #expect(DownloadFile.parseContentRange("bytes 0-0/*")! == (0, 0, nil))
        #expect(DownloadFile.parseContentRange("bytes 5-4/10") == nil)
        #expect(DownloadFile.parseContentRange("items 0-1/2") == nil)
        #expect(DownloadFile.parseContentRange("bytes 0-1/x") == nil)
    }
}
