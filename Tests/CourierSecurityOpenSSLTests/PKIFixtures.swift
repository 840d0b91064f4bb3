import CourierSecurity
import Foundation

/// The test PKI in `Fixtures/`, made by `ci/make-test-pki`, read relative to this file.
///
///     root CA -> intermediate CA -> leaf (localhost, api.test, 127.0.0.1, ::1), 2025..2125
///                                -> other-name (other.test), expired (2020..2021)
///                                -> revoked (revoked.test; in the intermediate's CRL and its OCSP
///                                   response), not-yet-valid, wildcard, leaf-reissued (the leaf's key)
///     self-signed (localhost, selfsigned.test, 127.0.0.1)
enum PKIFixtures {
    static let directory = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures")

    static func path(_ name: String) -> String { directory.appending(path: name).path }

    static func data(_ name: String) -> Data {
        do {
            return try Data(contentsOf: directory.appending(path: name))
        } catch {
            fatalError("missing fixture \(name) (run ci/make-test-pki): \(error)")
        }
    }

    static func text(_ name: String) -> String {
        String(decoding: data(name), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func certificate(_ name: String) -> Certificate { Certificate(derBytes: data("\(name).der")) }

    static let root = certificate("root-ca")
    static let intermediate = certificate("intermediate-ca")
    static let leaf = certificate("leaf")
    static let otherName = certificate("other-name")
    static let expired = certificate("expired")
    static let selfSigned = certificate("self-signed")
}
