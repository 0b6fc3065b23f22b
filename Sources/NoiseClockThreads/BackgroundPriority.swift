#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Lowers the calling thread to the scheduler's background share (nice 10): for threads whose
/// work comes in bursts that nothing waits on from one instant to the next (a station's decoding,
/// speech synthesis). On a small CPU, or a node held to a CPU quota, a burst then runs in what
/// the loop, the broker's thread and the audio thread leave, instead of ahead of a command's
/// answer (docs/performance.md, "A Pi's budget"). Linux's nice is per thread; raising it needs no
/// privilege, lowering it does: a thread already nicer than 10 (a process started at nice 19, as
/// `make test` runs its unit suites) is left where it is, never raised ahead of its process.
/// Returns whether the thread runs at `niceness` or nicer.
public enum BackgroundPriority {
    public static let niceness: Int32 = 10

    @discardableResult
    public static func lowerCallingThread() -> Bool {
        let thread = id_t(gettid())
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, thread)
        if errno == 0 && current >= niceness { return true }
        return setpriority(which, thread, niceness) == 0
    }

    /// The niceness a background thread started from the calling thread ends at: 10, or the
    /// caller's own when that is nicer.
    public static func expected() -> Int32 {
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(gettid()))
        return errno == 0 ? max(niceness, current) : niceness
    }
}
