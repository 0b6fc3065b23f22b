import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// Whether the kernel's clock is synchronised, from `adjtimex` (read-only: modes 0): NTP (or
/// chrony, systemd-timesyncd) clears `STA_UNSYNC` once it has disciplined the clock. A Raspberry
/// Pi without a real-time clock boots with the last saved time and `STA_UNSYNC` set until then.
public enum ClockSync {
    /// true: synchronised; false: not (yet); nil: the kernel would not say.
    public static func read() -> Bool? {
        var state = timex()
        state.modes = 0
        let result = adjtimex(&state)
        guard result >= 0 else { return nil }
        return result != TIME_ERROR && state.status & STA_UNSYNC == 0
    }
}
