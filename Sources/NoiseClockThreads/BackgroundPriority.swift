#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Lowers the calling thread to the scheduler's background share (nice 10): for threads whose
/// work comes in bursts that nothing waits on from one instant to the next (a station's decoding,
/// speech synthesis). On a small CPU, or a node held to a CPU quota, a burst then runs in what
/// the loop, the broker's thread and the audio thread leave, instead of ahead of a command's
/// answer (docs/performance.md, "A Pi's budget"). Linux's nice is per thread; raising it needs no
/// privilege. Returns whether it took.
public enum BackgroundPriority {
    public static let niceness: Int32 = 10

    @discardableResult
    public static func lowerCallingThread() -> Bool {
        let thread = id_t(gettid())
        return setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, niceness) == 0
    }
}
