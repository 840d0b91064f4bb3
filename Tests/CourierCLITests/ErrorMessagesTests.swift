import CourierSessionCore
import CourierTransport
import Foundation
import Testing

@testable import CourierCLI

/// Every failure `courier` can meet has a plain one-line message that names the server and what to
/// try, with the library's names and libcurl's codes left for `--verbose`.
@Suite struct ErrorMessagesTests {
    static let url = URL(string: "https://example.com:8443/report?x=1")

    /// Every session error kind, one of each; the switch fails to compile when a kind is added, so
    /// a new kind cannot go without a message.
    static let kinds: [SessionError.Kind] = {
        let all: [SessionError.Kind] = [
            .transport(.cannotConnect), .serialization, .redirect(.tooManyRedirects(limit: 3, visited: [])),
            .redirect(.disallowedScheme("http")), .redirect(.disallowedScheme("ftp")), .redirect(.bodyNotReplayable),
            .adaptationFailed, .retryFailed, .cancelled, .sessionInvalidated, .deadlineExceeded, .fileMoveFailed,
            .resetUnavailable, .eventStream(.notAnEventStream), .eventStream(.lineTooLong(limit: 10)),
            .eventStream(.eventTooLarge(limit: 10)), .notCached, .webSocket, .webSocketUnavailable,
        ]
        for kind in all {
            switch kind {
            case .transport, .serialization, .redirect, .adaptationFailed, .retryFailed, .cancelled,
                .sessionInvalidated, .deadlineExceeded, .fileMoveFailed, .resetUnavailable, .eventStream, .notCached,
                .webSocket, .webSocketUnavailable:
                continue
            }
        }
        return all
    }()

    /// Words that belong to the library, not to a person reading a terminal.
    static let libraryWords = ["SessionError", "TransportError", "code ", "Category", "Kind", "()"]

    private func checkPlain(_ text: String, _ what: String) {
        #expect(!text.contains("\n"), "\(what): one line")
        #expect(text.first?.isLowercase == true, "\(what): \(text)")
        for word in Self.libraryWords { #expect(!text.contains(word), "\(what): \(text)") }
    }

    @Test(arguments: ErrorMessages.categories)
    func everyTransportCategoryHasAPlainMessage(category: TransportError.Category) {
        let error = TransportError(category: category, code: 99, message: "libcurl said so. More detail", url: Self.url)
        let session = SessionError(kind: .transport(category), message: "m", failingURL: Self.url, underlying: error)
        let text = ErrorMessages().plain(session)
        checkPlain(text, "\(category)")
        // The category's own name (camelCase) never shows.
        if "\(category)".contains(where: \.isUppercase) {
            #expect(!text.contains("\(category)"), "\(category): \(text)")
        }
        // Each has words of its own; only trust and TLS failures quote libcurl's reason (which
        // certificate problem), and `.other` has nothing else to say.
        if ![.other, .serverTrustFailed, .tlsFailed].contains(category) {
            #expect(!text.contains("libcurl said so"), "\(category) has its own words: \(text)")
        }
        if ![.cancelled, .alreadyConsumed, .shutDown, .serverTrustFailed].contains(category) {
            #expect(text.contains("example.com:8443"), "\(category) names the server: \(text)")
        }
    }

    @Test(arguments: kinds)
    func everySessionErrorKindHasAPlainMessage(kind: SessionError.Kind) {
        let underlying = TransportError(category: .cannotConnect, code: 7, message: "Connection refused", url: Self.url)
        let error = SessionError(
            kind: kind,
            message: "the call passed its deadline",
            failingURL: Self.url,
            underlying: underlying
        )
        let text = ErrorMessages(timeout: .seconds(10)).plain(error)
        checkPlain(text, "\(kind)")
        #expect(!text.contains("the call passed its deadline"), "\(kind): \(text)")
    }

    @Test func theExamplesOfTheIssueReadAsWritten() {
        let deadline = SessionError(
            kind: .deadlineExceeded,
            message: "x",
            failingURL: URL(string: "https://example.com/a")
        )
        #expect(
            ErrorMessages(timeout: .seconds(10)).plain(deadline)
                == "timed out after 10 s waiting for the response from example.com (--timeout)"
        )
        let refused = TransportError(
            category: .cannotConnect,
            code: 7,
            message: "Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server; Connection refused",
            url: URL(string: "http://127.0.0.1:9/")
        )
        let session = SessionError(
            kind: .transport(.cannotConnect),
            message: "m",
            failingURL: URL(string: "http://127.0.0.1:9/"),
            underlying: refused
        )
        #expect(
            ErrorMessages().plain(session)
                == "could not connect to 127.0.0.1:9 (connection refused: is the server running on that port?)"
        )
        let trust = TransportError(
            category: .serverTrustFailed,
            code: 60,
            message: "SSL certificate problem: self-signed certificate. More details here: https://curl.se/docs/",
            url: URL(string: "https://127.0.0.1:8443/")
        )
        let trustError = SessionError(
            kind: .transport(.serverTrustFailed),
            message: "m",
            failingURL: nil,
            underlying: trust
        )
        #expect(
            ErrorMessages().plain(trustError)
                == "the server's certificate is not trusted: self-signed certificate "
                + "(--verify=CA_FILE trusts a CA, --verify=no skips the check)"
        )
        let slowConnect = TransportError(category: .timedOut, message: "Connection timed out after 2001 milliseconds")
        let connectError = SessionError(
            kind: .transport(.timedOut),
            message: "m",
            failingURL: URL(string: "http://10.0.0.1/"),
            underlying: slowConnect
        )
        #expect(
            ErrorMessages(connectTimeout: .milliseconds(2500)).plain(connectError)
                == "timed out after 2.5 s connecting to 10.0.0.1 (--connect-timeout)"
        )
    }

    @Test func verboseAddsTheLibrarysDescription() {
        let refused = TransportError(category: .cannotConnect, code: 7, message: "Connection refused")
        let error = SessionError(
            kind: .transport(.cannotConnect),
            message: "m",
            failingURL: Self.url,
            underlying: refused
        )
        #expect(ErrorMessages().lines(error, verbose: false).count == 1)
        let lines = ErrorMessages().lines(error, verbose: true)
        #expect(lines.count == 2)
        #expect(lines.last == "courier: details: cannotConnect (code 7): Connection refused")
    }
}
