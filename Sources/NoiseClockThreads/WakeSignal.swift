#if canImport(Glibc)
import Glibc
#endif

/// Lets a dedicated thread sleep without polling: it waits until `signal()` (stop, new work) or
/// a timeout, on the monotonic clock so a wall-clock jump cannot stretch the wait.
///
/// The one lock that is not a `Mutex` (docs/architecture.md, "Locks"): a condition variable
/// needs a pthread mutex to wait on, and `Synchronization.Mutex` has no condition.
public final class WakeSignal: @unchecked Sendable {
    // @unchecked Sendable: the pthread mutex and condition are only touched through the
    // pthread calls below, which are thread-safe by contract; `pending` is guarded by `mutex`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var pending = false

    public init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    public func signal() {
        pthread_mutex_lock(mutex)
        pending = true
        pthread_mutex_unlock(mutex)
        // After the unlock: the woken thread does not block again at once on the mutex held here.
        // Safe, as a waiter looks at `pending` under the mutex before it waits.
        pthread_cond_signal(condition)
    }

    /// Waits up to `seconds`, returning early (true) if signalled meanwhile or since the last wait.
    @discardableResult
    public func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let whole = Int(seconds)
        deadline.tv_sec += whole
        deadline.tv_nsec += Int((seconds - Double(whole)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !pending {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        let signalled = pending
        pending = false
        return signalled
    }
}
