// swift-tools-version:6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, which is wherever the repository was cloned;
// compute that name instead of assuming it.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

// The fuzz targets, one executable that runs the target its first argument names under libFuzzer.
// Built by ci/fuzz in debug, where every module is compiled with -enable-testing (the targets reach
// internal parsers through `@testable import`), and with `-sanitize=fuzzer,address` passed to every
// Swift module on the command line, so that the parsers themselves carry coverage and AddressSanitizer.
let package = Package(
    name: "CourierFuzz",
    dependencies: [.package(path: root.path)],
    targets: [
        // Declares libFuzzer's driver entry; the symbol comes with `-sanitize=fuzzer`.
        .systemLibrary(name: "CCourierFuzzDriver", path: "Sources/CCourierFuzzDriver"),
        .executableTarget(
            name: "CourierFuzz",
            dependencies: [
                "CCourierFuzzDriver",
                .product(name: "CourierHTTP", package: rootIdentity),
                .product(name: "CourierSerialization", package: rootIdentity),
                .product(name: "CourierCurl", package: rootIdentity),
                .product(name: "CourierSessionCore", package: rootIdentity),
                .product(name: "CourierReachability", package: rootIdentity),
                .product(name: "CourierReachabilityNetlink", package: rootIdentity),
                .product(name: "CourierImageDecoding", package: rootIdentity),
                .product(name: "CourierHTTPCache", package: rootIdentity),
                .product(name: "CourierWebSocket", package: rootIdentity),
            ],
            path: "Sources/CourierFuzz",
            // No top-level code: the entry is `CourierFuzz_main` (FuzzMain.swift), which SwiftPM links
            // as `main`, so that libFuzzer's own `main` is not pulled in.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            // gold stops with an internal error (dwarf_reader.cc) on the instrumented objects; lld,
            // which ships with the toolchain, links them.
            linkerSettings: [.unsafeFlags(["-use-ld=lld"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
