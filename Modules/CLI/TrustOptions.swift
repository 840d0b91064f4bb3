internal import CourierCurl
internal import CourierSecurity
internal import CourierSecurityOpenSSL
internal import FoundationEssentials

/// What the security flags (`--pin-key`, `--pin-cert`, `--cert`/`--key`/`--pass`, `--insecure`)
/// make of the transport, loaded and checked before anything is sent: a wrong passphrase or an
/// unreadable pin file is an error (exit 1) without a connection.
struct TrustOptions {
    var evaluator: (any ServerTrustEvaluating)?
    var identity: ClientIdentity?
    var insecure = false

    init(_ line: RequestCommandLine) throws(CommandFailure) {
        insecure = line.insecure
        let verifier = OpenSSLCertificateVerifier()
        do {
            if !line.publicKeyPins.isEmpty {
                var pins: [PublicKeyPin] = []
                for text in line.publicKeyPins { pins.append(try PublicKeyPin(text)) }
                evaluator = PublicKeyPinningTrustEvaluator(pins: pins)
            } else if !line.pinnedCertificateFiles.isEmpty {
                var certificates: [Certificate] = []
                for path in line.pinnedCertificateFiles {
                    certificates += try PinnedCertificateLoader.certificates(contentsOfFile: path, using: verifier)
                }
                evaluator = PinnedCertificatesTrustEvaluator(pinnedCertificates: certificates)
            }
            if let certificate = line.clientCertificate {
                let isBundle = [".p12", ".pfx"].contains { certificate.lowercased().hasSuffix($0) }
                identity =
                    isBundle
                    ? try ClientIdentity.load(pkcs12At: certificate, passphrase: line.clientPassphrase)
                    : try ClientIdentity.load(
                        certificateAt: certificate,
                        keyAt: line.clientKey,
                        passphrase: line.clientPassphrase
                    )
            }
        } catch {
            throw CommandFailure("\(error.code): \(error.reason)")
        }
    }

    func apply(to configuration: inout CurlTransport.Configuration) {
        if let evaluator { configuration.trustInstaller = OpenSSLTrustHook(evaluator: evaluator) }
        configuration.tls.clientIdentity = identity
        if insecure {
            configuration.tls.verifiesPeer = false
            configuration.tls.verifiesHost = false
        }
    }
}
