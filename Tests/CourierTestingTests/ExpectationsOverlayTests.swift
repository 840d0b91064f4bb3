import CourierHTTP
import CourierTesting
import CourierTestingExpectations
import CourierTransport
import Foundation
import Testing

@Suite struct ExpectationsOverlayTests {
    private let url = URL(string: "https://api.example.com/v1/me")!

    @Test func expectPassesSilentlyWhenTheCountIsRight() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, json: "{}")
        _ = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 10)

        #expect(transport.expect(.method(.get) && .path("/v1/me"), called: 1))
    }

    @Test func expectRecordsTheVerificationMessageAsAnIssue() async throws {
        let transport = MockTransport()
        transport.stub(url: url.absoluteString, json: "{}")
        _ = try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 1 << 10)

        withKnownIssue {
            transport.expect(.method(.post), called: 1, "creates the profile")
        } matching: { issue in
            issue.comments.map(\.rawValue) == [
                """
                creates the profile: expected exactly 1 request matching POST; 0 of 1 matched
                  1. GET https://api.example.com/v1/me: method is GET, not POST
                """
            ]
        }
    }

    @Test func anUnimplementedTransportFailsTheTestAndTheTransfer() async {
        let transport = UnimplementedTransport.failingTest("ProfileStore.transport")

        await withKnownIssue {
            await #expect(throws: TransportError.self) {
                try await transport.startTransfer(HTTPRequest(url: url)).collect(upTo: 10)
            }
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["ProfileStore.transport was used: GET https://api.example.com/v1/me"]
        }
        #expect(transport.attempts.map(\.url) == [url])
    }

    @Test func anUnstubbedRequestFailsTheTest() async {
        let transport = MockTransport.failingTestOnUnstubbedRequest()

        await withKnownIssue {
            _ = try? await transport.startTransfer(HTTPRequest(method: .delete, url: url)).collect(upTo: 10)
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["MockTransport has no stub for DELETE https://api.example.com/v1/me"]
        }
    }
}

@Suite struct UnimplementedTests {
    @Test func recordsAnIssueAndReturnsThePlaceholder() {
        let now: @Sendable () -> Int = { unimplemented("Clock.now", placeholder: 42) }

        withKnownIssue {
            #expect(now() == 42)
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["Unimplemented: Clock.now"]
        }
    }
}
