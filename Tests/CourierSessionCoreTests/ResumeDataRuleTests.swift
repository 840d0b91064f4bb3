import CourierHTTP
import CourierSessionCore
import Foundation
import Testing

/// `ResumeData.make(for:response:path:offset:)` with plain values: which stopped downloads can go
/// on (a `GET`, a `2xx`, a validator `If-Range` can carry, bytes on disk) and what the data says.
@Suite struct ResumeDataRuleTests {
    private let url = URL(string: "https://files.example.com/big.iso")!
    private let path = "/var/tmp/big.iso.part"

    private func response(status: Int = 200, _ fields: [String: String]) throws -> HTTPResponse {
        HTTPResponse(status: HTTPStatus(code: status), headers: try HTTPHeaders(fields))
    }

    @Test func aGetWithAStrongEntityTagCanBeResumed() throws {
        let head = try response(["ETag": "\"v1\"", "Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT"])
        let resumeData = ResumeData.make(for: HTTPRequest(url: url), response: head, path: path, offset: 4096)
        #expect(
            resumeData
                == ResumeData(
                    url: url,
                    entityTag: "\"v1\"",
                    lastModified: "Tue, 01 Dec 2026 10:00:00 GMT",
                    partialFilePath: path,
                    offset: 4096
                )
        )
    }

    @Test func aLastModifiedDateAloneIsAValidator() throws {
        let head = try response(["Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT"])
        let resumeData = ResumeData.make(for: HTTPRequest(url: url), response: head, path: path, offset: 1)
        #expect(resumeData?.entityTag == nil)
        #expect(resumeData?.lastModified == "Tue, 01 Dec 2026 10:00:00 GMT")
        #expect(resumeData?.offset == 1)
    }

    @Test func aWeakEntityTagIsNoValidatorButTheDateStillIs() throws {
        let weakOnly = try response(["ETag": "W/\"v1\""])
        #expect(ResumeData.make(for: HTTPRequest(url: url), response: weakOnly, path: path, offset: 10) == nil)
        let weakAndDate = try response(["ETag": "W/\"v1\"", "Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT"])
        let resumeData = ResumeData.make(for: HTTPRequest(url: url), response: weakAndDate, path: path, offset: 10)
        #expect(resumeData?.entityTag == nil)
        #expect(resumeData?.lastModified == "Tue, 01 Dec 2026 10:00:00 GMT")
    }

    @Test func noValidatorMeansNoResumeData() throws {
        let head = try response(["Content-Length": "100"])
        #expect(ResumeData.make(for: HTTPRequest(url: url), response: head, path: path, offset: 50) == nil)
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete, .head])
    func onlyAGetCanBeResumed(method: HTTPMethod) throws {
        let head = try response(["ETag": "\"v1\"", "Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT"])
        let request = HTTPRequest(method: method, url: url)
        #expect(ResumeData.make(for: request, response: head, path: path, offset: 4096) == nil)
    }

    @Test(arguments: [206, 204])
    func anySuccessStatusWithAValidatorCanBeResumed(status: Int) throws {
        let head = try response(status: status, ["ETag": "\"v1\""])
        #expect(ResumeData.make(for: HTTPRequest(url: url), response: head, path: path, offset: 7)?.offset == 7)
    }

    @Test(arguments: [304, 404, 416, 500, 503])
    func anErrorStatusCannotBeResumed(status: Int) throws {
        let head = try response(status: status, ["ETag": "\"v1\""])
        #expect(ResumeData.make(for: HTTPRequest(url: url), response: head, path: path, offset: 4096) == nil)
    }

    @Test func noBytesOrNoResponseMeansNoResumeData() throws {
        let head = try response(["ETag": "\"v1\""])
        #expect(ResumeData.make(for: HTTPRequest(url: url), response: head, path: path, offset: 0) == nil)
        #expect(ResumeData.make(for: HTTPRequest(url: url), response: nil, path: path, offset: 4096) == nil)
    }

    @Test func theURLIsTheLastRequestSent() throws {
        let redirected = URL(string: "https://cdn.example.com/v1/big.iso")!
        let head = try response(["ETag": "\"v1\""])
        let resumeData = ResumeData.make(for: HTTPRequest(url: redirected), response: head, path: path, offset: 5)
        #expect(resumeData?.url == redirected)
        #expect(resumeData?.partialFilePath == path)
    }
}
