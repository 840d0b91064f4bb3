#if canImport(Glibc)
    internal import Glibc
#endif

/// The tour: each step prints what it did and counts a failure when a result is not what Courier
/// promises, so `ci/demo` fails loudly when the library regresses.
///
/// An executable of the integration folder, not a product: the loopback servers it needs come with
/// the repository (`ci/demo` starts them), and `courier` keeps only what a user runs.
@main
struct Demo {
    static func main() async {
        // A closed stdout pipe (`ci/demo | head`) is a write error, not a silent death.
        signal(SIGPIPE, SIG_IGN)
        exit(await Demo().run() == 0 ? 0 : 1)
    }

    func run() async -> Int {
        print("Courier demo: every value below was computed just now by the library.")
        var failures = 0
        failures += SerializationDemo().run()
        failures += await MultipartDemo().run()
        failures += ResponseDemo().run()
        failures += await TransportDemo().run()
        failures += await SessionDemo().run()
        failures += await AuthenticationDemo().run()
        failures += await CacheDemo().run()
        print("")
        print(failures == 0 ? "demo: all steps ok" : "demo: \(failures) step(s) failed")
        return failures
    }
}

/// Compares what the library produced with what it must produce.
func check(_ condition: Bool, _ what: String) -> Int {
    if condition { return 0 }
    print("  FAILED: \(what)")
    return 1
}
