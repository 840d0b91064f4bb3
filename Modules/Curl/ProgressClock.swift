#if canImport(Glibc)
    internal import Glibc
#endif

/// The clock download progress is throttled by: `CLOCK_MONOTONIC_COARSE`, in milliseconds.
///
/// Progress is checked for every chunk libcurl writes, at most 16 KiB, so about 6,400 times per
/// 100 MiB. `ContinuousClock.now` there cost about 250 instructions a call on the loop thread
/// (callgrind): it reads the time stamp counter, and its `Instant` is a type of a library built for
/// evolution, so an optional one was handled through value witnesses. The coarse clock comes from
/// the vDSO without reading the counter, to the kernel's tick (1 to 4 ms), plenty for an interval
/// of 50 ms.
enum ProgressClock {
    /// How often progress is reported, either way (uploads in `UploadPump`, downloads in
    /// `ResponseBodyDelivery`).
    static var intervalMilliseconds: Int64 { 50 }

    /// Milliseconds since an arbitrary start, never decreasing.
    static func nowMilliseconds() -> Int64 {
        var time = timespec()
        // Fails only for an unknown clock id; Linux has had this one since 2.6.32.
        _ = clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
