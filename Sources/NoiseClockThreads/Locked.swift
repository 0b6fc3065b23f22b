#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex, for state shared with a dedicated or C library thread.
///
/// Why not `Synchronization.Mutex`: on Linux it is a bare futex that ThreadSanitizer cannot see,
/// so `make sanitize` reports every hand-over through it as a race (docs/performance.md);
/// ThreadSanitizer intercepts pthread mutexes. The call sites read the same as `Mutex`'s.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched between pthread_mutex_lock and unlock.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
