import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback TCP listener that reads nothing on its own: connections complete in the kernel's
/// backlog and their bytes fill its buffers until a test accepts one (`acceptPeer`) to read it.
final class LoopbackListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ToolError(message: "socket failed") }
        port = try Self.bind(descriptor)
        guard listen(descriptor, 8) == 0 else { throw ToolError(message: "listen failed") }
        // Non-blocking, so that `acceptPeer` never blocks a thread of the cooperative pool.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Binds `descriptor` to a free port on 127.0.0.1 and returns the port.
    static func bind(_ descriptor: Int32) throws -> Int {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Glibc.bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw ToolError(message: "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    var url: URL? { URL(string: "http://127.0.0.1:\(port)/") }

    /// The connection a client opened, taken from the backlog (waits up to 5 seconds, off the
    /// cooperative pool's threads: the accept does not block).
    func acceptPeer() async throws -> Int32 {
        let deadline = ContinuousClock.now + IntegrationEnvironment.bound(.seconds(5))
        while ContinuousClock.now < deadline {
            let peer = accept(descriptor, nil, nil)
            if peer >= 0 { return peer }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw ToolError(message: "no connection to accept")
    }

    /// Reads `peer` (non-blocking) until `expecting` bytes arrived, or, when `nil`, until the client
    /// closed the connection; fails after 5 seconds.
    static func receiveUntilClosed(_ peer: Int32, expecting: Int?) async throws -> ArraySlice<UInt8> {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + IntegrationEnvironment.bound(.seconds(5))
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(peer, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                received += buffer[..<count]
                if let expecting, received.count >= expecting { return received[...] }
            } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK) {
                guard expecting == nil else { throw ToolError(message: "the client closed early") }
                return received[...]
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        throw ToolError(message: "the client neither sent \(expecting ?? 0) bytes nor closed")
    }

    /// Reads `peer` (non-blocking) up to the blank line that ends a request head; fails after 5
    /// seconds.
    static func receiveRequestHead(_ peer: Int32) async throws {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        let deadline = ContinuousClock.now + IntegrationEnvironment.bound(.seconds(5))
        while ContinuousClock.now < deadline {
            if recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 1 {
                received.append(byte)
                if received.suffix(4) == [13, 10, 13, 10] { return }
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try await Task.sleep(for: .milliseconds(1))
            } else {
                throw ToolError(message: "the client closed before the end of its request head")
            }
        }
        throw ToolError(message: "no request head within 5 seconds")
    }

    /// Writes all of `bytes` to `peer` without blocking a thread (waits a millisecond whenever the
    /// socket's buffer is full); fails after 5 seconds.
    static func sendAll(_ peer: Int32, _ bytes: [UInt8]) async throws {
        var offset = 0
        let deadline = ContinuousClock.now + IntegrationEnvironment.bound(.seconds(5))
        while offset < bytes.count {
            guard ContinuousClock.now < deadline else { throw ToolError(message: "the client read too slowly") }
            let sent = bytes[offset...].withUnsafeBytes { send(peer, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if sent > 0 {
                offset += sent
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try await Task.sleep(for: .milliseconds(1))
            } else {
                throw ToolError(message: "send failed: errno \(errno)")
            }
        }
    }

    func close() { Glibc.close(descriptor) }
}
