// swift-tools-version:6.1
import PackageDescription

/// A library target whose sources live in `Modules/<folder>`.
func module(_ name: String, folder: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "Modules/\(folder)")
}

let package = Package(
    name: "Courier",
    products: [
        .library(name: "CourierHTTP", targets: ["CourierHTTP"]),
        .library(name: "CourierSerialization", targets: ["CourierSerialization"]),
        .library(name: "CourierSerializationXML", targets: ["CourierSerializationXML"]),
        .library(name: "CourierTransport", targets: ["CourierTransport"]),
        .library(name: "CourierTesting", targets: ["CourierTesting"]),
        .library(name: "CourierTestingExpectations", targets: ["CourierTestingExpectations"]),
        .library(name: "CourierSecurity", targets: ["CourierSecurity"]),
        .library(name: "CourierSecurityOpenSSL", targets: ["CourierSecurityOpenSSL"]),
        .library(name: "CourierCurl", targets: ["CourierCurl"]),
        .library(name: "CourierSessionCore", targets: ["CourierSessionCore"]),
        .library(name: "CourierSessionEngine", targets: ["CourierSessionEngine"]),
        .library(name: "CourierDiagnostics", targets: ["CourierDiagnostics"]),
        .library(name: "CourierReachability", targets: ["CourierReachability"]),
        .library(name: "CourierReachabilityNetlink", targets: ["CourierReachabilityNetlink"]),
        .library(name: "CourierDiskCache", targets: ["CourierDiskCache"]),
        .library(name: "CourierImageCache", targets: ["CourierImageCache"]),
        .library(name: "CourierImageDecoding", targets: ["CourierImageDecoding"]),
        .library(name: "CourierRequestCompression", targets: ["CourierRequestCompression"]),
        .library(name: "CourierImageDownloader", targets: ["CourierImageDownloader"]),
        .library(name: "CourierHTTPCache", targets: ["CourierHTTPCache"]),
        .library(name: "CourierContentDecoding", targets: ["CourierContentDecoding"]),
        .library(name: "CourierWebSocket", targets: ["CourierWebSocket"]),
        .library(name: "CourierWebSocketEngine", targets: ["CourierWebSocketEngine"]),
        .library(name: "Courier", targets: ["Courier"]),
        .executable(name: "courier", targets: ["CourierCLI"]),
    ],
    targets: [
        // MARK: Pure-Swift layers: they link no C library.
        // The lock all shared state sits behind (not a product: its `Lock` is package API). Built with
        // `-DCOURIER_TSAN_LOCK` it is a pthread mutex, which ThreadSanitizer can see (ci/sanitize thread).
        module("CourierLocking", folder: "Locking"),
        module("CourierHTTP", folder: "HTTP"),
        module("CourierSerialization", folder: "Serialization", ["CourierLocking", "CourierHTTP"]),
        module("CourierTransport", folder: "Transport", ["CourierLocking", "CourierHTTP"]),
        // WebSocket's interface (RFC 6455, RFC 7692): values, errors and the pure framing, handshake
        // and close rules; the connection engine that drives them over a transport lives elsewhere.
        module("CourierWebSocket", folder: "WebSocket", ["CourierHTTP", "CourierTransport"]),
        module(
            "CourierTesting",
            folder: "Testing",
            [
                "CourierLocking",
                "CourierHTTP", "CourierSerialization", "CourierTransport", "CourierReachability", "CourierSecurity",
                "CourierSessionCore", "CourierImageCache", "CourierWebSocket",
            ]
        ),
        // Swift Testing links full Foundation: the doubles that fail the running test live here, so
        // that CourierTesting stays on FoundationEssentials.
        module("CourierTestingExpectations", folder: "TestingExpectations", ["CourierTesting"]),
        module("CourierSecurity", folder: "Security"),
        // The session layer's interface: the session protocol, plug-in protocols, values, pure rules.
        module(
            "CourierSessionCore",
            folder: "SessionCore",
            [
                "CourierLocking", "CourierHTTP", "CourierSerialization", "CourierTransport", "CourierReachability",
                "CourierSecurity", "CourierWebSocket",
            ]
        ),
        // The diagnostics seam: no dependencies, so any layer can emit through it.
        module("CourierDiagnostics", folder: "Diagnostics"),

        // MARK: XML: FoundationXML links libxml2 and full Foundation, so it stays out of CourierSerialization.
        module("CourierSerializationXML", folder: "SerializationXML", ["CourierHTTP", "CourierSerialization"]),
        // Reachability's interface: the monitor protocol, AFNetworking's statuses, path values.
        module("CourierReachability", folder: "Reachability", ["CourierLocking"]),
        module("CourierDiskCache", folder: "DiskCache", ["CourierLocking"]),
        module("CourierImageCache", folder: "ImageCache", ["CourierLocking", "CourierHTTP", "CourierDiskCache"]),
        // The HTTP cache (RFC 9111) behind the session's cache seam, on the shared disk byte store.
        module(
            "CourierHTTPCache",
            folder: "HTTPCache",
            [
                "CourierLocking", "CourierHTTP", "CourierTransport", "CourierSessionCore", "CourierDiskCache",
                "CourierDiagnostics",
            ]
        ),

        // MARK: Engines: leaves that only the composition root, the CLI, apps and tests name.
        // The session engine: session managers, tasks, the task runner, downloads, streamed responses.
        module(
            "CourierSessionEngine",
            folder: "SessionEngine",
            [
                "CourierLocking",
                "CourierSessionCore", "CourierHTTP", "CourierSerialization", "CourierTransport", "CourierReachability",
                "CourierSecurity", "CourierWebSocket",
            ]
        ),
        // The reachability monitor on rtnetlink: the kernel headers only, no C library linked.
        .systemLibrary(name: "CCourierNetlink", path: "Modules/CCourierNetlink"),
        module(
            "CourierReachabilityNetlink",
            folder: "ReachabilityNetlink",
            ["CourierLocking", "CourierReachability", "CCourierNetlink", "CourierDiagnostics"]
        ),

        // MARK: Backends: the only targets that link OpenSSL or libcurl.
        .systemLibrary(
            name: "CCourierOpenSSL",
            path: "Modules/CCourierOpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(name: "CCourierOpenSSLShim", dependencies: ["CCourierOpenSSL"], path: "Modules/CCourierOpenSSLShim"),
        module(
            "CourierSecurityOpenSSL",
            folder: "SecurityOpenSSL",
            ["CourierLocking", "CourierSecurity", "CCourierOpenSSL", "CCourierOpenSSLShim"]
        ),

        // MARK: libcurl backend (leaf: the only targets that link libcurl)
        .systemLibrary(
            name: "CCourierCurl",
            path: "Modules/CCourierCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(name: "CCourierCurlShim", dependencies: ["CCourierCurl"], path: "Modules/CCourierCurlShim"),
        // Trust policies come in through CourierSecurity's protocols (TLSContextTrustInstalling).
        module(
            "CourierCurl",
            folder: "Curl",
            [
                "CourierLocking",
                "CourierHTTP", "CourierTransport", "CourierSecurity", "CourierDiagnostics", "CourierContentDecoding",
                "CCourierCurl", "CCourierCurlShim",
            ]
        ),

        // MARK: Request compression (leaf: the only target that names zlib)
        .systemLibrary(
            name: "CCourierZlib",
            path: "Modules/CCourierZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        module(
            "CourierRequestCompression",
            folder: "RequestCompression",
            ["CourierHTTP", "CourierSessionCore", "CCourierZlib"]
        ),

        // MARK: Response decoding (leaf: the only target that names brotli and zstd; zlib too)
        .systemLibrary(
            name: "CCourierBrotli",
            path: "Modules/CCourierBrotli",
            pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"])]
        ),
        .systemLibrary(
            name: "CCourierZstd",
            path: "Modules/CCourierZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // The brotli encoder, for the decoder's tests only (they make their vectors with it).
        .systemLibrary(
            name: "CCourierBrotliEncoder",
            path: "Modules/CCourierBrotliEncoder",
            pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev"])]
        ),
        module(
            "CourierContentDecoding",
            folder: "ContentDecoding",
            ["CCourierZlib", "CCourierBrotli", "CCourierZstd"]
        ),

        // MARK: WebSocket engine (leaf: OpenSSL's SHA-1 for the handshake, zlib for permessage-deflate)
        // It drives CourierWebSocket's rules over a transport's RawConnection and never names libcurl.
        module(
            "CourierWebSocketEngine",
            folder: "WebSocketEngine",
            [
                "CourierLocking", "CourierHTTP", "CourierTransport", "CourierWebSocket", "CourierContentDecoding",
                "CCourierOpenSSL", "CCourierZlib",
            ]
        ),

        // MARK: Image codecs (leaf: the only targets that link libpng, libjpeg and libwebp)
        .target(
            name: "CCourierImageCodecs",
            path: "Modules/CCourierImageCodecs",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("webp")]
        ),
        module(
            "CourierImageDecoding",
            folder: "ImageDecoding",
            ["CourierHTTP", "CourierSerialization", "CourierImageCache", "CCourierImageCodecs"]
        ),
        // The image downloader links the codecs through CourierImageDecoding, so it stays out of Courier.
        module(
            "CourierImageDownloader",
            folder: "ImageDownloader",
            [
                "CourierLocking", "CourierHTTP", "CourierSessionCore", "CourierTransport", "CourierImageCache",
                "CourierImageDecoding",
            ]
        ),

        // MARK: The composition root: the one library module that names the backends.
        module(
            "Courier",
            folder: "Courier",
            [
                "CourierLocking",
                "CourierHTTP", "CourierSerialization", "CourierTransport", "CourierSessionCore", "CourierSessionEngine",
                "CourierSecurity", "CourierSecurityOpenSSL", "CourierCurl", "CourierHTTPCache", "CourierReachability",
                "CourierWebSocket", "CourierWebSocketEngine",
            ]
        ),

        // MARK: Executables
        .executableTarget(
            name: "CourierCLI",
            dependencies: [
                "CourierLocking",
                "Courier", "CourierHTTP", "CourierSerialization", "CourierTransport", "CourierCurl", "CourierSecurity",
                "CourierSecurityOpenSSL", "CourierSessionCore", "CourierSessionEngine", "CourierReachability",
                "CourierReachabilityNetlink", "CourierImageCache", "CourierImageDecoding", "CourierImageDownloader",
                "CourierRequestCompression", "CourierWebSocket",
            ],
            path: "Modules/CLI"
        ),

        // MARK: Unit tests (no network)
        // The seeded generator, the error-chain helper and the collecting diagnostics handler shared by
        // the unit and integration tests (not a product).
        .target(
            name: "CourierTestSupport",
            dependencies: ["CourierLocking", "CourierDiagnostics", "CourierSerialization"],
            path: "Tests/CourierTestSupport"
        ),
        .testTarget(name: "CourierHTTPTests", dependencies: ["CourierHTTP"]),
        .testTarget(
            name: "CourierWebSocketTests",
            dependencies: ["CourierWebSocket", "CourierHTTP", "CourierTransport"]
        ),
        .testTarget(
            name: "CourierWebSocketEngineTests",
            dependencies: [
                "CourierLocking", "CourierWebSocketEngine", "CourierWebSocket", "CourierHTTP", "CourierTransport",
                "CourierTesting",
            ]
        ),
        // The `courier` executable's own rules (its messages, its grammar), through @testable import.
        .testTarget(
            name: "CourierCLITests",
            dependencies: [
                "CourierCLI", "CourierSessionCore", "CourierTesting", "CourierTransport", "CourierWebSocket",
            ]
        ),
        .testTarget(
            name: "CourierSerializationTests",
            dependencies: ["CourierLocking", "CourierSerialization", "CourierTestSupport"]
        ),
        .testTarget(
            name: "CourierSerializationXMLTests",
            dependencies: ["CourierHTTP", "CourierSerialization", "CourierSerializationXML", "CourierTestSupport"]
        ),
        .testTarget(
            name: "CourierTransportTests",
            dependencies: ["CourierLocking", "CourierHTTP", "CourierTransport"]
        ),
        .testTarget(
            name: "CourierTestingTests",
            dependencies: [
                "CourierLocking",
                "CourierHTTP", "CourierTransport", "CourierTesting", "CourierTestingExpectations", "CourierSecurity",
                "CourierSessionCore", "CourierSessionEngine", "CourierSerialization", "CourierImageCache",
                "CourierWebSocket",
            ]
        ),
        .testTarget(name: "CourierSecurityTests", dependencies: ["CourierLocking", "CourierSecurity"]),
        .testTarget(name: "CourierDiagnosticsTests", dependencies: ["CourierDiagnostics", "CourierTestSupport"]),
        .testTarget(
            name: "CourierSecurityOpenSSLTests",
            dependencies: [
                "CourierLocking", "CourierSecurity", "CourierSecurityOpenSSL", "CCourierOpenSSL", "CCourierOpenSSLShim",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "CourierContentDecodingTests",
            dependencies: [
                "CourierContentDecoding", "CCourierZlib", "CCourierBrotliEncoder", "CCourierZstd",
                "CourierTestSupport",
            ]
        ),
        .testTarget(
            name: "CourierCurlTests",
            dependencies: [
                "CourierCurl", "CourierTransport", "CourierHTTP", "CourierDiagnostics", "CourierTestSupport",
            ]
        ),
        .testTarget(
            name: "CourierSessionCoreTests",
            dependencies: [
                "CourierLocking",
                "CourierSessionCore", "CourierHTTP", "CourierSerialization", "CourierTransport", "CourierTesting",
                "CourierTestSupport", "CourierWebSocket",
            ]
        ),
        .testTarget(
            name: "CourierSessionEngineTests",
            dependencies: [
                "CourierLocking",
                "CourierSessionEngine", "CourierSessionCore", "CourierHTTP", "CourierSerialization", "CourierTransport",
                "CourierTesting", "CourierSecurity", "CourierReachability", "CourierTestSupport", "CourierWebSocket",
            ]
        ),
        .testTarget(
            name: "CourierReachabilityTests",
            dependencies: ["CourierLocking", "CourierReachability", "CourierTesting", "CourierTestSupport"]
        ),
        .testTarget(
            name: "CourierReachabilityNetlinkTests",
            dependencies: [
                "CourierLocking",
                "CourierReachabilityNetlink", "CourierReachability", "CourierDiagnostics", "CourierTestSupport",
            ]
        ),

        .testTarget(
            name: "CourierTests",
            dependencies: ["CourierLocking", "Courier", "CourierTesting", "CourierTestSupport", "CourierWebSocket"]
        ),

        .testTarget(name: "CourierDiskCacheTests", dependencies: ["CourierDiskCache", "CourierTestSupport"]),
        .testTarget(
            name: "CourierRequestCompressionTests",
            dependencies: [
                "CourierRequestCompression", "CourierSessionCore", "CourierSessionEngine", "CourierHTTP",
                "CourierTesting", "CCourierZlib", "CourierTestSupport",
            ]
        ),
        .testTarget(
            name: "CourierImageCacheTests",
            dependencies: [
                "CourierLocking", "CourierImageCache", "CourierHTTP", "CourierDiskCache", "CourierTestSupport",
            ]
        ),
        .testTarget(
            name: "CourierImageDecodingTests",
            dependencies: [
                "CourierImageDecoding", "CourierImageCache", "CourierHTTP", "CourierSerialization",
                "CourierTestSupport",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "CourierImageDownloaderTests",
            dependencies: [
                "CourierLocking",
                "CourierImageDownloader", "CourierImageCache", "CourierImageDecoding", "CourierHTTP",
                "CourierSessionCore", "CourierSessionEngine", "CourierTransport", "CourierTesting",
            ]
        ),
        .testTarget(
            name: "CourierHTTPCacheTests",
            dependencies: [
                "CourierLocking",
                "CourierHTTPCache", "CourierSessionCore", "CourierSessionEngine", "CourierHTTP", "CourierTransport",
                "CourierTesting", "CourierDiskCache", "CourierTestSupport", "CourierSerialization",
                "CourierDiagnostics",
            ]
        ),

        // MARK: Integration tests (real servers and tools, started by ci/servers)
        // The reachability monitor as a helper process (not a product): the integration tests run it
        // inside network namespaces of their own (`ip netns exec`), where /sys is the namespace's.
        .executableTarget(
            name: "CourierReachabilityWatch",
            dependencies: ["CourierReachability", "CourierReachabilityNetlink", "CourierDiagnostics"],
            path: "Integration/ReachabilityWatch"
        ),
        // ThreadSanitizer's canary and planted race on CourierLocking's Lock, which ci/sanitize thread
        // runs before the suites. Here rather than in Integration/Sanitize: Lock is package API, and
        // package access does not reach a nested package.
        .executableTarget(name: "CourierLockCanary", dependencies: ["CourierLocking"], path: "Integration/LockCanary"),
        // A child process for the disk cache's cross-process and environment tests.
        .executableTarget(
            name: "CourierCacheHelper",
            dependencies: ["CourierDiskCache", "CourierImageCache"],
            path: "Integration/CacheHelper"
        ),
        // A child process for the resumable-download tests: cancelled, killed and resumed across processes.
        .executableTarget(
            name: "CourierDownloadHelper",
            dependencies: [
                "CourierLocking",
                "CourierCurl", "CourierHTTP", "CourierSessionCore", "CourierSessionEngine", "CourierTransport",
            ],
            path: "Integration/DownloadHelper"
        ),
        // A child process for the memory-bound tests: reads through CurlTransport and reports its peak
        // RSS, away from the test runner's own allocations.
        .executableTarget(
            name: "CourierMemoryHelper",
            dependencies: ["CCourierOpenSSL", "CourierCurl", "CourierHTTP", "CourierTransport"],
            path: "Integration/MemoryHelper"
        ),
        // The tour that ci/demo runs against the loopback servers (not a product): each step checks what
        // the library returned, so the tour fails when the library regresses.
        .executableTarget(
            name: "CourierDemo",
            dependencies: [
                "CourierLocking",
                "CourierCurl", "CourierHTTP", "CourierHTTPCache", "CourierSerialization", "CourierSessionCore",
                "CourierSessionEngine", "CourierTransport",
            ],
            path: "Integration/Demo"
        ),
        // The allocation-budget test's child process: it replaces malloc to count every allocation.
        .target(name: "CCourierAllocationCounter", path: "Integration/AllocationCounter"),
        .executableTarget(
            name: "CourierAllocationHelper",
            dependencies: [
                "CCourierAllocationCounter", "CCourierCurl", "CourierCurl", "CourierHTTP", "CourierSessionCore",
                "CourierSessionEngine", "CourierTransport",
            ],
            path: "Integration/AllocationHelper"
        ),
        // The thread census test's child process: starts what a running client starts and lists its
        // threads by name, away from the test runner's own threads.
        .executableTarget(
            name: "CourierThreadCensus",
            dependencies: [
                "Courier", "CourierCurl", "CourierImageCache", "CourierImageDownloader", "CourierReachability",
                "CourierReachabilityNetlink", "CourierSessionEngine",
            ],
            path: "Integration/ThreadCensus"
        ),
        .testTarget(
            name: "CourierIntegrationTests",
            dependencies: [
                "CourierLocking",
                "CourierHTTP", "CourierSerialization", "CourierTransport", "CourierCurl", "CourierSecurity",
                "CourierSecurityOpenSSL", "CourierDiagnostics", "CourierSessionCore", "CourierSessionEngine",
                "CourierReachability", "CourierReachabilityNetlink", "CourierTestSupport",
                "CourierRequestCompression", "Courier", "CourierImageDownloader", "CourierImageDecoding",
                "CourierImageCache", "CourierHTTPCache", "CCourierOpenSSL", "CourierWebSocket",
                "CourierWebSocketEngine",
            ],
            path: "Integration/Tests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
    target.swiftSettings = settings
}
// -warnings-as-errors and -require-explicit-sendable are passed by ci/ (see ci/lib.sh), never as
// unsafeFlags here, so that packages depending on Courier are not rejected.
