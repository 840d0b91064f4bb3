// swift-tools-version:6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, which is wherever the repository was cloned;
// compute that name instead of assuming it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
    name: "CourierBenchmarks",
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "CourierBench",
            dependencies: [
                .product(name: "CourierHTTP", package: rootIdentity),
                .product(name: "CourierSerialization", package: rootIdentity),
                .product(name: "CourierTransport", package: rootIdentity),
                .product(name: "CourierCurl", package: rootIdentity),
                .product(name: "CourierSessionCore", package: rootIdentity),
                .product(name: "CourierSessionEngine", package: rootIdentity),
                .product(name: "CourierImageCache", package: rootIdentity),
                .product(name: "CourierImageDecoding", package: rootIdentity),
                .product(name: "CourierHTTPCache", package: rootIdentity),
                .product(name: "CourierWebSocket", package: rootIdentity),
                .product(name: "CourierWebSocketEngine", package: rootIdentity),
            ],
            path: "Sources/CourierBench"
        ),
        // FoundationNetworking's URLSession, measured beside Courier; never a dependency of Courier.
        .executableTarget(name: "URLSessionClient", path: "Sources/URLSessionClient"),
    ],
    swiftLanguageModes: [.v6]
)
