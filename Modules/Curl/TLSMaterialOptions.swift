internal import CCourierCurl
internal import CCourierCurlShim
internal import CourierSecurity
internal import CourierTransport
internal import FoundationEssentials

/// The libcurl options that carry one TLS peer's trust anchors and client identity: libcurl keeps
/// a set for the server and a parallel `CURLOPT_PROXY_*` set for an `https://` proxy.
struct TLSMaterialOptions {
    let caFile: CURLoption
    let caDirectory: CURLoption
    let certificate: CURLoption
    let certificateType: CURLoption
    let key: CURLoption
    let keyPassword: CURLoption
    let certificateBlob: CURLoption
    let keyBlob: CURLoption
    let keyType: CURLoption

    static let server = TLSMaterialOptions(
        caFile: CURLOPT_CAINFO,
        caDirectory: CURLOPT_CAPATH,
        certificate: CURLOPT_SSLCERT,
        certificateType: CURLOPT_SSLCERTTYPE,
        key: CURLOPT_SSLKEY,
        keyPassword: CURLOPT_KEYPASSWD,
        certificateBlob: CURLOPT_SSLCERT_BLOB,
        keyBlob: CURLOPT_SSLKEY_BLOB,
        keyType: CURLOPT_SSLKEYTYPE
    )

    static let proxy = TLSMaterialOptions(
        caFile: CURLOPT_PROXY_CAINFO,
        caDirectory: CURLOPT_PROXY_CAPATH,
        certificate: CURLOPT_PROXY_SSLCERT,
        certificateType: CURLOPT_PROXY_SSLCERTTYPE,
        key: CURLOPT_PROXY_SSLKEY,
        keyPassword: CURLOPT_PROXY_KEYPASSWD,
        certificateBlob: CURLOPT_PROXY_SSLCERT_BLOB,
        keyBlob: CURLOPT_PROXY_SSLKEY_BLOB,
        keyType: CURLOPT_PROXY_SSLKEYTYPE
    )
}

extension EasyOptions {
    /// Sets the trust anchors and client identity of `tls` through the options in `names`.
    func setMaterial(of tls: CurlTransport.TLS, _ names: TLSMaterialOptions) throws(TransportError) {
        if let caFile = tls.caFile { try set(names.caFile, caFile) }
        if let caDirectory = tls.caDirectory { try set(names.caDirectory, caDirectory) }
        if let identity = tls.clientIdentity {
            // Checked and decrypted already: handed over as PEM in memory, never through a file.
            try set(names.certificateBlob, blob: identity.certificateChainPEM)
            try set(names.certificateType, "PEM")
            try set(names.keyBlob, blob: identity.privateKeyPEM)
            try set(names.keyType, "PEM")
        } else if let identity = tls.clientCertificate {
            try set(names.certificate, identity.path)
            try set(names.certificateType, identity.format.rawValue)
            if let keyPath = identity.keyPath { try set(names.key, keyPath) }
            if let password = identity.keyPassword { try set(names.keyPassword, password) }
        }
    }
}
