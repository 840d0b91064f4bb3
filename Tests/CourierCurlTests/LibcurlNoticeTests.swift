import Testing

@testable import CourierCurl

@Suite struct LibcurlNoticeTests {
    @Test func recognisesExcessBody() {
        let line = "Excess found in a read: excess = 10, size = 10, maxdownload = 10, bytecount = 0\n"
        #expect(LibcurlNotice.parse(line) == .excessBody(bytes: 10))
    }

    @Test func recognisesGoawayInBothSpellings() {
        #expect(LibcurlNotice.parse("recveived GOAWAY, error=2, last_stream=1\n") == .goaway(errorCode: 2))
        #expect(LibcurlNotice.parse("received GOAWAY, error=0, last_stream=3\n") == .goaway(errorCode: 0))
        #expect(LibcurlNotice.parse("received GOAWAY, error=x") == nil)
    }

    @Test func ignoresOtherLines() {
        #expect(LibcurlNotice.parse("Connected to 127.0.0.1 (127.0.0.1) port 80 (#0)\n") == nil)
        #expect(LibcurlNotice.parse("Expire in 0 ms for 6 (transfer 0x1)\n") == nil)
        #expect(LibcurlNotice.parse("") == nil)
    }

    @Test func firstByteFilterAdmitsEveryRecognisedLine() {
        for line in ["Excess found in a read: excess = 1", "recveived GOAWAY, error=1", "received GOAWAY, error=1"] {
            #expect(LibcurlNotice.mayStart(with: line.utf8.first ?? 0))
        }
        #expect(!LibcurlNotice.mayStart(with: UInt8(ascii: "C")))
    }
}
