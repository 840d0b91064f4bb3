// swift-tools-version:6.1
import Foundation
import PackageDescription

// The package an app team would have: an API client on the session layer, and its tests on the
// test kit. ci/test builds it as a package that depends on Courier, runs its tests and checks that
// the test binary links neither libcurl nor OpenSSL; the README shows its files.

// SwiftPM names a path dependency after its folder, which is wherever the repository was cloned;
// compute that name instead of assuming it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
    name: "CourierAppExample",
    dependencies: [.package(path: root.path)],
    targets: [
        // The app's API client: it calls the session protocol (CourierSessionCore); its wiring makes
        // the engine's session (CourierSessionEngine) on whatever transport the app passes.
        .target(
            name: "ProfileApp",
            dependencies: [
                .product(name: "CourierSessionCore", package: rootIdentity),
                .product(name: "CourierSessionEngine", package: rootIdentity),
            ],
            path: "Sources/ProfileApp"
        ),
        // Its tests: the real session pipeline over MockTransport, and the client alone on MockSession.
        .testTarget(
            name: "ProfileAppTests",
            dependencies: [
                "ProfileApp",
                .product(name: "CourierSessionCore", package: rootIdentity),
                .product(name: "CourierTesting", package: rootIdentity),
            ],
            path: "Tests/ProfileAppTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
