import CCourierFuzzDriver
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The target libFuzzer's callback runs; chosen once, before the driver starts.
let selectedTarget = Mutex<FuzzTarget?>(nil)

/// `CourierFuzz TARGET [libFuzzer options and corpus directories]`: runs one target under libFuzzer.
///
/// SwiftPM links an executable's entry as `main` (`--defsym main=CourierFuzz_main`); defining it
/// here, with no top-level code, keeps libFuzzer's own `main` out, and the target is picked before
/// libFuzzer sees the remaining arguments.
@_cdecl("CourierFuzz_main")
func courierFuzzMain(
    _ argc: Int32,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    let arguments = (0..<Int(argc)).map { index in argv?[index].map { String(cString: $0) } ?? "" }
    if arguments.count == 2, arguments[1] == "--list" {
        print(FuzzTarget.all.map(\.name).joined(separator: " "))
        return 0
    }
    let plantedBugAllowed = getenv("COURIER_FUZZ_PLANTED_BUG").map { String(cString: $0) } == "1"
    guard arguments.count >= 2, let target = FuzzTarget.named(arguments[1], plantedBugAllowed: plantedBugAllowed)
    else {
        let names = FuzzTarget.all.map(\.name).joined(separator: " ")
        print("usage: CourierFuzz TARGET [libFuzzer options] [corpus...]\ntargets: \(names)")
        return 2
    }
    if arguments.count >= 3, arguments[2] == "--floors" {
        // For ci/fuzz: the target's floors, without fuzzing.
        print("coverage=\(target.coverageFloor) executions=\(target.executionFloor)")
        return 0
    }
    selectedTarget.withLock { $0 = target }
    // libFuzzer gets the program name and everything after the target's name.
    var driverArguments: [UnsafeMutablePointer<CChar>?] = [argv?[0]] + (2..<Int(argc)).map { argv?[$0] } + [nil]
    var driverCount = Int32(driverArguments.count - 1)
    return driverArguments.withUnsafeMutableBufferPointer { buffer in
        var base = buffer.baseAddress
        return LLVMFuzzerRunDriver(&driverCount, &base, fuzzOneInput)
    }
}

/// One input for the selected target. Also exported under the name libFuzzer's library refers to.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = selectedTarget.withLock({ $0 }) else { return 0 }
    target.run(data.map { Data(bytes: $0, count: size) } ?? Data())
    return 0
}
