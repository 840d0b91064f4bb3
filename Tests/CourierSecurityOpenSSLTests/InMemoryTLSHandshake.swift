import CCourierOpenSSL
import CourierLocking
import CourierSecurity
import CourierSecurityOpenSSL
import Foundation

/// A real TLS handshake between an OpenSSL server and client in this process, over memory BIOs,
/// stepped on the calling thread (no sockets, no threads, no waiting): the client's `SSL_CTX` gets
/// the trust hook exactly as libcurl's would in `CURLOPT_SSL_CTX_FUNCTION`.
final class InMemoryTLSHandshake {
    enum Failure: Error { case setUp(String) }

    let serverContext: OpaquePointer
    let clientContext: OpaquePointer
    private(set) var server: OpaquePointer?
    private(set) var client: OpaquePointer?

    /// - Parameters:
    ///   - certificateChainFile: The server's PEM chain (leaf first).
    ///   - keyFile: The server's private key.
    ///   - clientAnchors: What the client's store trusts (libcurl's CAINFO).
    /// What the server staples when the client asks (`status_request`); owned by the handshake.
    private let staple: StapleBox?

    init(
        certificateChainFile: String,
        keyFile: String,
        clientAnchors: [Certificate],
        staple: Data? = nil,
        maximumVersion: Int? = nil
    ) throws {
        guard let serverContext = SSL_CTX_new(TLS_server_method()) else { throw Failure.setUp("server SSL_CTX") }
        self.serverContext = serverContext
        guard let clientContext = SSL_CTX_new(TLS_client_method()) else {
            SSL_CTX_free(serverContext)
            throw Failure.setUp("client SSL_CTX")
        }
        self.clientContext = clientContext
        guard SSL_CTX_use_certificate_chain_file(serverContext, certificateChainFile) == 1,
            SSL_CTX_use_PrivateKey_file(serverContext, keyFile, X509_FILETYPE_PEM) == 1,
            SSL_CTX_check_private_key(serverContext) == 1
        else { throw Failure.setUp("server certificate and key") }
        if let maximumVersion {
            // SSL_CTX_set_max_proto_version is a macro.
            _ = SSL_CTX_ctrl(clientContext, SSL_CTRL_SET_MAX_PROTO_VERSION, maximumVersion, nil)
        }
        self.staple = staple.map(StapleBox.init)
        if let box = self.staple {
            // SSL_CTX_set_tlsext_status_cb and _arg are macros; the server answers a status_request
            // with the staple (as nginx's ssl_stapling_file does).
            let serve: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, arg in
                guard let ssl, let arg else { return SSL_TLSEXT_ERR_NOACK }
                let staple = Unmanaged<StapleBox>.fromOpaque(arg).takeUnretainedValue().bytes
                guard let copy = CRYPTO_malloc(staple.count, "staple", 0) else { return SSL_TLSEXT_ERR_ALERT_FATAL }
                staple.copyBytes(to: copy.assumingMemoryBound(to: UInt8.self), count: staple.count)
                _ = SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_STATUS_REQ_OCSP_RESP, staple.count, copy)  // takes `copy`
                return SSL_TLSEXT_ERR_OK
            }
            _ = SSL_CTX_callback_ctrl(
                serverContext,
                SSL_CTRL_SET_TLSEXT_STATUS_REQ_CB,
                unsafeBitCast(serve, to: (@convention(c) () -> Void).self)
            )
            _ = SSL_CTX_ctrl(
                serverContext,
                SSL_CTRL_SET_TLSEXT_STATUS_REQ_CB_ARG,
                0,
                Unmanaged.passUnretained(box).toOpaque()
            )
        }
        // libcurl with CURLOPT_SSL_VERIFYPEER=1.
        SSL_CTX_set_verify(clientContext, SSL_VERIFY_PEER, nil)
        let store = SSL_CTX_get_cert_store(clientContext)
        for anchor in clientAnchors {
            let x509: OpaquePointer? = anchor.derBytes.withUnsafeBytes { raw in
                var cursor: UnsafePointer<UInt8>? = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return d2i_X509(nil, &cursor, raw.count)
            }
            guard let x509 else { throw Failure.setUp("anchor") }
            defer { X509_free(x509) }
            guard X509_STORE_add_cert(store, x509) == 1 else { throw Failure.setUp("anchor store") }
        }
    }

    deinit {
        freeConnections()
        SSL_CTX_free(serverContext)
        SSL_CTX_free(clientContext)
    }

    /// What ``run()`` saw.
    struct Outcome {
        var clientHandshakeDone: Bool
        var serverHandshakeDone: Bool
        var clientVerifyResult: Int
        /// What the server read after the client tried to send `ping`.
        var applicationDataAtServer: Data
    }

    /// Handshakes, then has the client send `ping` and the server read it.
    func run() throws -> Outcome {
        freeConnections()
        guard let server = SSL_new(serverContext), let client = SSL_new(clientContext) else {
            throw Failure.setUp("SSL_new")
        }
        self.server = server
        self.client = client
        for ssl in [server, client] {
            guard let read = BIO_new(BIO_s_mem()), let write = BIO_new(BIO_s_mem()) else { throw Failure.setUp("BIO") }
            SSL_set_bio(ssl, read, write)  // the SSL owns both BIOs
        }
        SSL_set_accept_state(server)
        SSL_set_connect_state(client)

        var clientDone = false
        var serverDone = false
        var clientFailed = false
        var serverFailed = false
        for _ in 0..<20 where !(clientDone && serverDone) && !clientFailed && !serverFailed {
            if !clientDone {
                let result = SSL_do_handshake(client)
                clientDone = result == 1
                clientFailed = result <= 0 && SSL_get_error(client, result) != SSL_ERROR_WANT_READ
            }
            shuttle(from: client, to: server)
            if !serverDone {
                let result = SSL_do_handshake(server)
                serverDone = result == 1
                serverFailed = result <= 0 && SSL_get_error(server, result) != SSL_ERROR_WANT_READ
            }
            shuttle(from: server, to: client)
        }
        // Drain what is in flight (a failing client's alert reaches the server).
        shuttle(from: client, to: server)
        if !serverDone, !serverFailed { _ = SSL_do_handshake(server) }
        serverDone = SSL_is_init_finished(server) == 1
        clientDone = SSL_is_init_finished(client) == 1
        ERR_clear_error()

        let ping = Array("ping".utf8)
        _ = SSL_write(client, ping, Int32(ping.count))
        shuttle(from: client, to: server)
        var buffer = [UInt8](repeating: 0, count: 64)
        let read = SSL_read(server, &buffer, Int32(buffer.count))
        ERR_clear_error()
        return Outcome(
            clientHandshakeDone: clientDone,
            serverHandshakeDone: serverDone,
            clientVerifyResult: SSL_get_verify_result(client),
            applicationDataAtServer: read > 0 ? Data(buffer.prefix(Int(read))) : Data()
        )
    }

    private func shuttle(from source: OpaquePointer, to destination: OpaquePointer) {
        guard let output = SSL_get_wbio(source), let input = SSL_get_rbio(destination) else { return }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = BIO_read(output, &buffer, Int32(buffer.count))
            guard count > 0 else { return }
            _ = BIO_write(input, buffer, count)
        }
    }

    private func freeConnections() {
        if let server { SSL_free(server) }
        if let client { SSL_free(client) }
        server = nil
        client = nil
    }
}

/// The staple a server context hands out; lives as long as the handshake that holds it.
final class StapleBox {
    let bytes: Data
    init(_ bytes: Data) { self.bytes = bytes }
}

/// An evaluator that records every trust it is asked about and answers with a fixed decision.
final class RecordingTrustEvaluator: ServerTrustEvaluating {
    let decision: TrustDecision
    private let seen = Lock<[ServerTrust]>([])

    init(decision: TrustDecision) { self.decision = decision }

    var trusts: [ServerTrust] { seen.withLock { $0 } }

    func evaluate(_ trust: ServerTrust) -> TrustDecision {
        seen.withLock { $0.append(trust) }
        return decision
    }
}
