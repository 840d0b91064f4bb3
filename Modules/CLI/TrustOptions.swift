internal import CourierCurl
internal import CourierSecurity
internal import CourierSecurityOpenSSL
internal import FoundationEssentials

/// What the security flags (`--pin-key`, `--pin-cert`, `--crlfile`, `--ocsp`, `--cert`/`--key`/`--pass`,
/// `--insecure`) make of the transport, loaded and checked before anything is sent: a wrong
/// passphrase or an unreadable pin or CRL file is an error (exit 1) without a connection.
struct TrustOptions {
    var evaluator: (any ServerTrustEvaluating)?
    var revocation = RevocationPolicy.none
    var checksRevocation = false
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
            if !line.crlFiles.isEmpty || line.ocspStapling != nil {
                let stapling: RevocationPolicy.OCSPStapling =
                    switch line.ocspStapling {
                    case "required": .required
                    case "preferred": .preferred
                    default: .ignored
                    }
                revocation = try RevocationPolicy(ocspStapling: stapling, crlFiles: line.crlFiles)
                checksRevocation = true
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
        if evaluator != nil || checksRevocation {
            // Without pins, the default evaluator checks what libcurl would: the chain and the host.
            configuration.trustInstaller = OpenSSLTrustHook(
                evaluator: evaluator ?? DefaultTrustEvaluator(),
                revocation: revocation
            )
        }
        configuration.tls.clientIdentity = identity
        if insecure {
            configuration.tls.verifiesPeer = false
            configuration.tls.verifiesHost = false
        }
    }
}
