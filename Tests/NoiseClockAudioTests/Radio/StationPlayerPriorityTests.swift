import Foundation
import NoiseClockThreads
import Testing
@testable import NoiseClockAudio

/// A station's decoding runs behind the loop and the audio thread (`BackgroundPriority`): its
/// player thread's niceness, read from /proc as `top` shows it, is 10 (0 before: docs/performance.md,
/// "A Pi's budget"), or the test's own when that is nicer: `make test` runs the unit suites at nice
/// 19, where an ordinary user may not lower a thread to 10.
struct StationPlayerPriorityTests {
    /// Field 19 of /proc/self/task/<tid>/stat (after the name in parentheses, which may hold spaces).
    static func niceness(ofThread tid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) : nil
    }

    @Test func thePlayerThreadRunsAtBackgroundNiceness() {
        // A refused address: the player starts, backs off and waits, its thread alive throughout.
        let source = StationSource(url: "http://127.0.0.1:1/live", outputRate: 48_000, userAgent: "NoiseClock/test") { _ in }
        var nice: Int?
        for _ in 0..<250 where nice == nil {
            let tid = source.playerThreadID
            if tid != 0, source.failure != nil { nice = Self.niceness(ofThread: tid) }
            if nice == nil { usleep(20_000) }
        }
        #expect(nice == Int(BackgroundPriority.expected()))
        #expect(BackgroundPriority.expected() >= BackgroundPriority.niceness)
    }
}
