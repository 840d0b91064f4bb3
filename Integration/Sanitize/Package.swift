// swift-tools-version:6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, which is wherever the repository was cloned;
// compute that name instead of assuming it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

// The programs `ci/sanitize` runs under a sanitizer (passed on its command line to every module):
// the transfer stress for LeakSanitizer and the descriptor count, and the planted faults that prove
// AddressSanitizer and LeakSanitizer are really on (ThreadSanitizer's is the root package's
// CourierLockCanary, which needs CourierLocking's package API).
let package = Package(
    name: "CourierSanitize",
    dependencies: [.package(path: root.path)],
    targets: [
        .executableTarget(
            name: "CourierStress",
            dependencies: [
                .product(name: "CourierHTTP", package: rootIdentity),
                .product(name: "CourierTransport", package: rootIdentity),
                .product(name: "CourierCurl", package: rootIdentity),
            ],
            path: "Sources/CourierStress"
        )
    ],
    swiftLanguageModes: [.v6]
)
