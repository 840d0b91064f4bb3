#if !COURIER_TSAN_LOCK
    // Public, though no public declaration here names it: `Lock` is usable from inlinable code
    // (AutoPurgingImageCache's public inlinable lookups take it), and so is the Mutex inside it,
    // so that calls to withLock are specialised and inlined like Mutex's own.
    public import Synchronization

    /// The lock that every piece of Courier's shared mutable state sits behind, instead of
    /// `Synchronization.Mutex` directly.
    ///
    /// It exists so that ThreadSanitizer can check Courier's locking: on Swift 6.3 for Linux the
    /// Synchronization library is not instrumented, so TSan cannot see a `Mutex` being taken and
    /// reports correct code under it as a race. A normal build wraps a `Mutex` and costs nothing
    /// more; a build with the compilation condition `COURIER_TSAN_LOCK` (what `ci/sanitize thread`
    /// passes) uses a `pthread_mutex_t` instead, which TSan intercepts (see `PthreadLock.swift`).
    ///
    /// ```swift
    /// private let state = Lock(State())
    /// state.withLock { $0.pending.append(request) }
    /// ```
    @usableFromInline
    package struct Lock<Value: ~Copyable>: ~Copyable {
        /// The lock and the value it guards, together, as the normal build keeps them.
        @usableFromInline let mutex: Mutex<Value>

        /// Creates a lock guarding `initialValue`, which from now on is reached only through
        /// ``withLock(_:)``.
        @inlinable
        package init(_ initialValue: consuming sending Value) {
            mutex = Mutex(initialValue)
        }

        /// Runs `body` with exclusive access to the guarded value, so that no other thread reads
        /// or writes it meanwhile; the lock is released when `body` returns or throws.
        ///
        /// `body` must not take the same lock again: it is not recursive.
        @inlinable
        package borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            try mutex.withLock(body)
        }
    }

    // Checked: the only stored property is a Mutex, Sendable whatever it guards.
    extension Lock: Sendable where Value: ~Copyable {}
#endif
