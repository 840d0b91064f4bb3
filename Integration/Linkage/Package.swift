// swift-tools-version:6.1
import Foundation
import PackageDescription

// One tiny executable per libcurl-free product of the root package; ci/check-linkage builds them
// and inspects what each one links. A probe is a folder `Sources/<Product>/` holding a `main.swift`
// that uses one symbol of that product, plus its name in `probedProducts` below. A backend's probe
// also has `expected-libraries/<Product>`: the libraries it must link (see ci/check-linkage).

// SwiftPM names a path dependency after its folder, which is wherever the repository was cloned;
// compute that name instead of assuming it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

// Every probed product, by name: Sources/<Product>/main.swift. (Listed rather than read from the
// folder, because SwiftPM caches the evaluated manifest and would not see a new folder.)
let probedProducts = [
    "CourierHTTP", "CourierSerialization", "CourierTransport", "CourierTesting", "CourierSecurity",
    "CourierSecurityOpenSSL", "CourierCurl",
]

let package = Package(
    name: "CourierLinkage",
    dependencies: [.package(path: root.path)],
    targets: probedProducts.map { product in
        .executableTarget(
            name: "\(product)Probe",
            dependencies: [.product(name: product, package: rootIdentity)],
            path: "Sources/\(product)"
        )
    },
    swiftLanguageModes: [.v6]
)
