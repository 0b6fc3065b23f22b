import Foundation
import Glibc

/// The node's clock under the test's control. Every test node runs with
/// NOISECLOCK_TEST_CLOCK_FILE naming `clockFile`: the offset in milliseconds the node adds to the
/// system clock. Both processes read the same CLOCK_REALTIME, so once the node has taken an
/// offset the test knows the node's time exactly: `now`, and `nodeTime(of:)` for the moment a
/// message arrived.
extension NodeProcess {
    /// The node's time now.
    var now: Date { Date().addingTimeInterval(Double(clockOffsetMilliseconds) / 1000) }

    /// The node's time at the wall-clock moment `date` (e.g. when a message arrived).
    func nodeTime(of date: Date) -> Date { date.addingTimeInterval(Double(clockOffsetMilliseconds) / 1000) }

    /// Writes the offset that makes the node's time `date` now, atomically (temporary file, then
    /// rename), without waiting: for a node that is not running, which reads it when it starts.
    func writeClock(to date: Date) throws {
        let offset = Int64((date.timeIntervalSinceNow * 1000).rounded())
        let temporary = clockFile.deletingLastPathComponent().appendingPathComponent(".offset-ms.tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data("\(offset)\n".utf8)),
              rename(temporary.path, clockFile.path) == 0 else {
            throw TestFailure("cannot write \(clockFile.path): \(String(cString: strerror(errno)))")
        }
        clockOffsetMilliseconds = offset
    }

    /// Moves the running node's clock so that it reads `date` now, and returns once the node has
    /// taken the change: the node handles it like a system clock step and logs that it re-plans.
    /// Commands sent afterwards are handled after the re-planning (one event loop, in order).
    func setClock(to date: Date, timeout: Double = 20) async throws {
        let before = clockChangesLogged
        try writeClock(to: date)
        let deadline = Date().addingTimeInterval(timeout)
        while clockChangesLogged <= before {
            guard Date() < deadline, isRunning else {
                throw TestFailure("the node did not take the new clock within \(timeout) s (running: \(isRunning))")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// How many clock changes the node has logged so far.
    var clockChangesLogged: Int { log.components(separatedBy: "system clock changed").count - 1 }
}

/// Whole minutes on the node's clock, in UTC (the test nodes' zone).
enum NodeTime {
    /// A whole minute about `daysAhead` days after now, at `hour:minute` UTC, far from the
    /// wall-clock time: an alarm set for it can only ring when the test moves the clock there.
    static func minute(hour: Int, minute: Int, daysAhead: Int = 1) -> Date {
        let today = (Int(Date().timeIntervalSince1970) / 86_400) * 86_400
        return Date(timeIntervalSince1970: Double(today + daysAhead * 86_400 + hour * 3600 + minute * 60))
    }

    /// The next `hour:minute` UTC at least a minute from now: where a one-shot alarm set now
    /// (whose trigger is its next such minute) rings, whatever the time of day the test runs.
    static func nextMinute(hour: Int, minute: Int) -> Date {
        let today = self.minute(hour: hour, minute: minute, daysAhead: 0)
        return today.timeIntervalSinceNow >= 60 ? today : self.minute(hour: hour, minute: minute, daysAhead: 1)
    }
}
