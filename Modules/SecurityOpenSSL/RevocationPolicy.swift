internal import CCourierOpenSSLShim
public import CourierSecurity
public import FoundationEssentials

/// What an ``OpenSSLTrustHook`` checks about revocation, besides its evaluator: a stapled OCSP
/// response, certificate revocation lists, both or neither.
///
/// A revoked certificate is final: the hook rejects it whatever the evaluator would say, because a
/// matching pin or `allowInvalidCertificates` must not let a revoked (compromised) key through. The
/// transfer fails with `TransportError.Category.serverTrustFailed`, the message says "revoked" and
/// by which mechanism, and the error's `underlying` is a `SecurityError` with
/// `SecurityError.Code.certificateRevoked` (or `SecurityError.Code.revocationUnknown` when the
/// status could not be established). See <doc:Revocation>.
///
/// ```swift
/// let revocation = try RevocationPolicy(ocspStapling: .preferred, crlFiles: ["/etc/myapp/ca.crl"])
/// configuration.trustInstaller = OpenSSLTrustHook(evaluator: DefaultTrustEvaluator(), revocation: revocation)
/// ```
public struct RevocationPolicy: Sendable, Hashable {
    /// Whether the server must staple an OCSP response (RFC 6066 `status_request`).
    public enum OCSPStapling: Sendable, Hashable {
        /// Do not ask for a staple.
        case ignored
        /// Soft fail: a missing staple passes; a staple that says revoked, or one that cannot be
        /// trusted (unverifiable signature, out of date, not about this certificate), fails.
        case preferred
        /// Hard fail: a missing staple fails too, like `CURLOPT_SSL_VERIFYSTATUS`.
        case required
    }

    /// What to do about a stapled OCSP response.
    public var ocspStapling: OCSPStapling
    /// Whether every certificate of the chain needs a current CRL from its issuer
    /// (`X509_V_FLAG_CRL_CHECK_ALL`), not only the leaf (`X509_V_FLAG_CRL_CHECK`). Ignored without CRLs.
    public var checksWholeChain: Bool
    /// The CRLs, DER-encoded, each parsed once when the policy was made.
    public let certificateRevocationLists: [Data]

    /// No revocation checks.
    public static let none = RevocationPolicy(ocspStapling: .ignored)

    /// A policy about OCSP staples only.
    ///
    /// ```swift
    /// let revocation = RevocationPolicy(ocspStapling: .required)
    /// ```
    ///
    /// - Parameter ocspStapling: What to do about a stapled OCSP response.
    public init(ocspStapling: OCSPStapling) {
        self.ocspStapling = ocspStapling
        self.checksWholeChain = false
        self.certificateRevocationLists = []
    }

    /// A policy with CRLs read from files (PEM with one or more `X509 CRL` blocks, or DER).
    ///
    /// ```swift
    /// let revocation = try RevocationPolicy(crlFiles: ["/etc/myapp/intermediate.crl"], checksWholeChain: false)
    /// ```
    ///
    /// - Parameters:
    ///   - ocspStapling: What to do about a stapled OCSP response; ignored by default.
    ///   - crlFiles: The CRL files; with CRLs, a chain whose leaf (or, with `checksWholeChain`, any
    ///     certificate) has no current CRL from its issuer fails.
    ///   - checksWholeChain: Whether every certificate of the chain needs a CRL.
    /// - Throws: `SecurityError` with `SecurityError.Code.unreadableFile` or
    ///   `SecurityError.Code.invalidCRL`.
    public init(ocspStapling: OCSPStapling = .ignored, crlFiles: [String], checksWholeChain: Bool = false)
        throws(SecurityError)
    {
        var contents: [Data] = []
        for path in crlFiles {
            do {
                contents.append(try Data(contentsOf: URL(fileURLWithPath: path)))
            } catch {
                throw SecurityError(.unreadableFile, reason: "cannot read the CRL file \(path): \(error)")
            }
        }
        try self.init(ocspStapling: ocspStapling, crlData: contents, checksWholeChain: checksWholeChain)
    }

    /// A policy with CRLs given as data (PEM or DER each).
    ///
    /// ```swift
    /// let revocation = try RevocationPolicy(crlData: [crlPEM])
    /// ```
    ///
    /// - Parameters:
    ///   - ocspStapling: What to do about a stapled OCSP response; ignored by default.
    ///   - crlData: The CRLs.
    ///   - checksWholeChain: Whether every certificate of the chain needs a CRL.
    /// - Throws: `SecurityError` with `SecurityError.Code.invalidCRL` when an entry holds no CRL or a
    ///   corrupt one.
    public init(ocspStapling: OCSPStapling = .ignored, crlData: [Data], checksWholeChain: Bool = false)
        throws(SecurityError)
    {
        OpenSSLRuntime.initialize()
        var parsed: [Data] = []
        for (index, data) in crlData.enumerated() {
            let collector = CRLCollector()
            let count = data.withUnsafeBytes { raw in
                courier_crls_parse(
                    raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                    raw.count,
                    { context, der, length in
                        guard let context, let der else { return }
                        let collector = Unmanaged<CRLCollector>.fromOpaque(context).takeUnretainedValue()
                        collector.ders.append(Data(bytes: der, count: length))
                    },
                    Unmanaged.passUnretained(collector).toOpaque()
                )
            }
            guard count > 0 else {
                throw SecurityError(
                    .invalidCRL,
                    reason: "CRL \(index + 1) is neither a PEM nor a DER CRL, or is corrupt"
                )
            }
            parsed += collector.ders
        }
        self.ocspStapling = ocspStapling
        self.checksWholeChain = checksWholeChain
        self.certificateRevocationLists = parsed
    }

    /// Whether the policy checks anything.
    var isActive: Bool { ocspStapling != .ignored || !certificateRevocationLists.isEmpty }

    /// Calls `body` with the C view of the policy, valid during the call; nil when inactive.
    func withConfiguration<R>(_ body: (UnsafePointer<courier_revocation_config>?) -> R) -> R {
        guard isActive else { return body(nil) }
        let joined = certificateRevocationLists.reduce(into: [UInt8]()) { $0 += $1 }
        let lengths = certificateRevocationLists.map(\.count)
        return joined.withUnsafeBufferPointer { bytes in
            var offset = 0
            let starts: [UnsafePointer<UInt8>?] = lengths.map { length in
                defer { offset += length }
                return bytes.baseAddress.map { $0 + offset }
            }
            return starts.withUnsafeBufferPointer { starts in
                lengths.withUnsafeBufferPointer { lengths in
                    var configuration = courier_revocation_config(
                        crl_ders: starts.baseAddress,
                        crl_lengths: lengths.baseAddress,
                        crl_count: lengths.count,
                        crl_check_all: checksWholeChain ? 1 : 0,
                        request_ocsp_staple: ocspStapling == .ignored ? 0 : 1
                    )
                    return withUnsafePointer(to: &configuration) { body($0) }
                }
            }
        }
    }
}

/// Collects what `courier_crls_parse` hands back, during that call only and on its thread.
private final class CRLCollector {
    var ders: [Data] = []
}
