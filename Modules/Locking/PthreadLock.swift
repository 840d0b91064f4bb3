#if COURIER_TSAN_LOCK
    #if canImport(Glibc)
        internal import Glibc
    #elseif canImport(Musl)
        internal import Musl
    #endif

    /// The lock that every piece of Courier's shared mutable state sits behind, as built for
    /// ThreadSanitizer (the compilation condition `COURIER_TSAN_LOCK`): a `pthread_mutex_t`.
    ///
    /// TSan intercepts `pthread_mutex_lock` and `pthread_mutex_unlock`, so it sees this lock being
    /// taken where it cannot see a `Synchronization.Mutex` (not instrumented on Swift 6.3 for Linux),
    /// and its reports about the state behind it mean something. The normal build's `Lock` wraps a
    /// `Mutex` (see `Lock.swift`); the API is the same.
    @usableFromInline
    package struct Lock<Value: ~Copyable>: ~Copyable {
        /// The mutex, on the heap: a `pthread_mutex_t` must not move once initialised, and this
        /// struct may.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        /// The guarded value, on the heap so that a borrowed lock can still hand it out `inout`.
        private let value: UnsafeMutablePointer<Value>

        /// Creates a lock guarding `initialValue`, which from now on is reached only through
        /// ``withLock(_:)``.
        package init(_ initialValue: consuming sending Value) {
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            // Error-checking, so that taking the lock twice on one thread traps (as a Mutex does)
            // instead of hanging the sanitizer run.
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            mutex = .allocate(capacity: 1)
            let status = pthread_mutex_init(mutex, &attributes)
            pthread_mutexattr_destroy(&attributes)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
            value = .allocate(capacity: 1)
            value.initialize(to: initialValue)
        }

        /// Runs `body` with exclusive access to the guarded value, so that no other thread reads
        /// or writes it meanwhile; the lock is released when `body` returns or throws.
        ///
        /// `body` must not take the same lock again: it is not recursive. Not inlinable, unlike the
        /// normal build's, so that Glibc stays an internal import: speed does not count under TSan.
        @usableFromInline
        package borrowing func withLock<Result: ~Copyable, E: Error>(
            _ body: (inout sending Value) throws(E) -> sending Result
        ) throws(E) -> sending Result {
            let locked = pthread_mutex_lock(mutex)
            precondition(locked == 0, "pthread_mutex_lock failed: \(locked)")
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }

        deinit {
            value.deinitialize(count: 1)
            value.deallocate()
            pthread_mutex_destroy(mutex)
            mutex.deallocate()
        }
    }

    // Unchecked because this is the lock itself: the value behind the raw pointer is only ever
    // reached under the pthread mutex, which is what the compiler cannot see.
    extension Lock: @unchecked Sendable where Value: ~Copyable {}
#endif
