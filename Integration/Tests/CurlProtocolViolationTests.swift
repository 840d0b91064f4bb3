import CourierCurl
import CourierHTTP
import CourierTransport
import Foundation
import Testing

@Suite struct CurlProtocolViolationTests {
    private func failure(for response: String) async throws -> TransportError? {
        let server = try CannedResponseServer(response: Data(response.utf8))
        defer { server.close() }
        let transport = CurlTestServers.transport()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/"))
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        await transport.shutdown()
        return recorded.error
    }

    @Test func reportsTruncatedBody() async throws {
        let error = try await failure(for: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")
        #expect(error?.category == .connectionLost)
        #expect(error?.code == 18)
    }

    @Test func reportsMalformedStatusLine() async throws {
        let error = try await failure(for: "HTTP/1.1 2x0 OK\r\nContent-Length: 0\r\n\r\n")
        #expect(error?.category == .protocolViolation)
    }

    @Test func reportsBrokenChunking() async throws {
        let error = try await failure(
            for: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"
        )
        #expect(error?.category == .protocolViolation || error?.category == .connectionLost)
        #expect(error != nil)
    }

    @Test func reportsBadGzip() async throws {
        let error = try await failure(
            for: "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 10\r\n\r\nnot-gzip!!"
        )
        #expect(error?.category == .contentDecodingFailed)
        #expect(error?.code == 61)
    }

    @Test func rejectsConflictingFraming() async throws {
        let both = try await failure(
            for: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
        )
        #expect(both?.category == .protocolViolation)
        #expect(both?.message == "the response has both Transfer-Encoding and Content-Length")
        let conflicting = try await failure(
            for: "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"
        )
        #expect(conflicting?.message == "the response has conflicting Content-Length values 3, 4")
        let invalid = try await failure(for: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n")
        #expect(invalid?.category == .protocolViolation)
    }

    @Test func acceptsRepeatedEqualContentLength() async throws {
        let server = try CannedResponseServer(
            response: Data("HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\nConnection: close\r\n\r\nabc".utf8)
        )
        defer { server.close() }
        let transport = CurlTestServers.transport()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/"))
        let recorded = await record(transport.startTransfer(HTTPRequest(url: url)))
        #expect(recorded.error == nil)
        #expect(recorded.body == Data("abc".utf8))
        await transport.shutdown()
    }

    @Test func limitsEndlessInterimResponses() async throws {
        let interim = String(repeating: "HTTP/1.1 100 Continue\r\nX-Filler: 0123456789\r\n\r\n", count: 6000)
        let error = try await failure(for: interim)
        #expect(error?.category == .protocolViolation)
        #expect(error?.message == "the server sent more than 16 interim (1xx) responses")
    }

    @Test func reportsEmptyReply() async throws {
        let error = try await failure(for: "")
        #expect(error?.category == .connectionLost)
        #expect(error?.code == 52)
    }
}

/// A one-shot loopback server that reads a request head, writes canned bytes and closes. It runs on
/// a Foundation thread of its own, so its blocking socket calls never touch the cooperative pool.
final class CannedResponseServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init(response: Data) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw ToolError(message: "socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let ready = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw -> Bool in
                bind(fd, raw, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard ready else { throw ToolError(message: "bind/listen failed") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            var received = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !received.contains(Data("\r\n\r\n".utf8)) {
                let count = read(connection, &buffer, buffer.count)
                if count <= 0 { break }
                received.append(contentsOf: buffer[0..<count])
            }
            response.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { _ = write(connection, base, bytes.count) }
            }
            _ = Glibc.close(connection)
        }
        thread.start()
    }

    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = Glibc.close(listener)
    }
}
