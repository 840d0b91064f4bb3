// swift-tools-version:6.1
import Foundation
import PackageDescription

// Courier as a user's package sees it. One tiny executable per product of the root package, which
// ci/check-linkage builds and inspects for what it links; and the README's examples (Examples/),
// which ci/check-readme compiles, runs where they need no network, and compares with the README.
// (The README's testing example is a package of its own, Integration/AppExample.)
//
// ci/check-linkage builds the probes and inspects what each one links. A probe is a folder `Sources/<Product>/` holding a `main.swift`
// that uses one symbol of that product, plus its name in `probedProducts` below. A backend's probe
// also has `expected-libraries/<Product>`: the libraries it must link (see ci/check-linkage).

// SwiftPM names a path dependency after its folder, which is wherever the repository was cloned;
// compute that name instead of assuming it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

// Every probed product, by name: Sources/<Product>/main.swift. (Listed rather than read from the
// folder, because SwiftPM caches the evaluated manifest and would not see a new folder.)
let probedProducts = [
    "CourierHTTP", "CourierSerialization", "CourierSerializationXML", "CourierTransport", "CourierTesting",
    "CourierTestingExpectations",
    "CourierSecurity", "CourierSecurityOpenSSL", "CourierCurl", "CourierDiagnostics", "CourierSessionCore",
    "CourierSessionEngine", "CourierReachability", "CourierReachabilityNetlink",
    "CourierDiskCache", "CourierImageCache", "CourierImageDecoding", "CourierImageDownloader",
    "CourierRequestCompression",
    "Courier",
    "CourierHTTPCache",
    "CourierContentDecoding",
    "CourierWebSocket",
    "CourierWebSocketEngine",
]

func courier(_ product: String) -> Target.Dependency {
    .product(name: product, package: rootIdentity)
}

let probes: [Target] = probedProducts.map { product in
    .executableTarget(name: "\(product)Probe", dependencies: [courier(product)], path: "Sources/\(product)")
}

// The README's examples, one target per way of using Courier.
let examples: [Target] = [
    .executableTarget(
        name: "BatteriesIncluded",
        dependencies: [courier("Courier")],
        path: "Examples/BatteriesIncluded"
    ),
    .executableTarget(name: "OneModule", dependencies: [courier("CourierSerialization")], path: "Examples/OneModule"),
    .executableTarget(
        name: "CustomStack",
        dependencies: [
            courier("CourierCurl"), courier("CourierHTTP"), courier("CourierSecurity"),
            courier("CourierSecurityOpenSSL"), courier("CourierSerialization"), courier("CourierSessionCore"),
            courier("CourierSessionEngine"),
        ],
        path: "Examples/CustomStack"
    ),
    .executableTarget(name: "HTTPCaching", dependencies: [courier("Courier")], path: "Examples/HTTPCaching"),
]

let package = Package(
    name: "CourierLinkage",
    dependencies: [.package(path: root.path)],
    targets: probes + examples,
    swiftLanguageModes: [.v6]
)
