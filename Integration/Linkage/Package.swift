// swift-tools-version:6.1
import Foundation
import PackageDescription

// One tiny executable per libcurl-free product of the root package; ci/check-linkage builds them
// and inspects what each one links. A probe is a folder `Sources/<Product>/` holding a `main.swift`
// that uses one symbol of that product, so adding a product to the check is adding that one file.

// SwiftPM names a path dependency after its folder, which is wherever the repository was cloned;
// compute that name instead of assuming it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let sources = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("Sources")
let probedProducts = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()

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
