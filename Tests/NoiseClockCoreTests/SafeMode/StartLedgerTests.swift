@testable import NoiseClockCore
import Testing

/// The start-counting rule of safe mode (mqtt-api v1.4): a start without a clean stop within its
/// first 10 minutes on the node's clock is a crashed start; the third start after 2 in a row is
/// in safe mode; 10 minutes of it and a restart, or `safe_mode/exit`, end it. Every instant is
/// handed in (the node's clock), and every document goes through its JSON as the file would.
@Suite struct StartLedgerTests {
    static let t0 = Instant(seconds: 1_795_241_070)

    /// The ledger as the next start reads it back from `starts.json`.
    static func reread(_ ledger: StartLedger) -> StartLedger {
        StartLedger(restoring: try! JSONParser().parse(Array(ledger.document.serialized.utf8)))
    }

    @Test func twoCrashedStartsInARowMakeTheThirdASafeModeStart() {
        var ledger = StartLedger()
        let first = ledger.begin(now: Self.t0, crashRecord: nil)
        #expect(first == nil, "a first start is a normal one")
        // Crashed 2 s in: the next start finds `running` and counts it, with the handler's record.
        ledger = Self.reread(ledger)
        let second = ledger.begin(now: Self.t0.adding(seconds: 4), crashRecord: "SIGILL (signal 4): a trap")
        #expect(second == nil)
        #expect(ledger.crashedStarts == 1)
        ledger = Self.reread(ledger)
        let safe = ledger.begin(now: Self.t0.adding(seconds: 8), crashRecord: nil)
        #expect(safe == SafeModeStatus(since: Self.t0.adding(seconds: 8), crashedStarts: 2, lastError: ledger.lastError))
        #expect(safe?.lastError?.hasPrefix("no clean stop") == true, "a crash without a record (kill -9) says so")
        #expect(Self.reread(ledger) == ledger)
    }

    @Test func aStartTenMinutesOldOnTheNodesClockIsNotACrashedStart() {
        var ledger = StartLedger()
        _ = ledger.begin(now: Self.t0, crashRecord: nil)
        ledger = Self.reread(ledger)
        _ = ledger.begin(now: Self.t0.adding(seconds: 5), crashRecord: "SIGSEGV (signal 11)")
        #expect(ledger.crashedStarts == 1)
        let young = ledger.settle(now: Self.t0.adding(seconds: 5 + 599))
        #expect(!young, "9 min 59 s: still young")
        let settled = ledger.settle(now: Self.t0.adding(seconds: 5 + 600))
        #expect(settled)
        #expect(ledger.crashedStarts == 0 && ledger.running == nil)
        let again = ledger.settle(now: Self.t0.adding(seconds: 5 + 601))
        #expect(!again, "settled once")
        // A crash after the 10 minutes is not counted: the next start is a normal one.
        ledger = Self.reread(ledger)
        let late = ledger.begin(now: Self.t0.adding(seconds: 3600), crashRecord: "SIGABRT (signal 6)")
        #expect(late == nil)
        #expect(ledger.crashedStarts == 0)
    }

    @Test func aCleanStopBreaksTheRowButDoesNotEndAYoungSafeMode() {
        var ledger = StartLedger()
        _ = ledger.begin(now: Self.t0, crashRecord: nil)
        _ = ledger.begin(now: Self.t0.adding(seconds: 1), crashRecord: nil)
        ledger.stoppedCleanly()
        #expect(ledger.crashedStarts == 0, "crash, clean stop: the row is broken")
        var next = Self.reread(ledger)
        let afterCleanStop = next.begin(now: Self.t0.adding(seconds: 2), crashRecord: nil)
        #expect(afterCleanStop == nil)

        // Two crashes: safe mode. A clean stop within its 10 minutes keeps the count: safe again.
        ledger = StartLedger()
        for second in 0..<3 { _ = ledger.begin(now: Self.t0.adding(seconds: Int64(second)), crashRecord: nil) }
        #expect(ledger.running?.safeMode == true)
        ledger.stoppedCleanly()
        ledger = Self.reread(ledger)
        let tooSoon = ledger.begin(now: Self.t0.adding(seconds: 60), crashRecord: nil)
        #expect(tooSoon?.crashedStarts == 2, "restarted too soon: still safe")
        // 10 minutes of safe mode, then a restart: a normal start.
        let ranTenMinutes = ledger.settle(now: Self.t0.adding(seconds: 660))
        #expect(ranTenMinutes)
        ledger.stoppedCleanly()
        next = Self.reread(ledger)
        let afterTenMinutes = next.begin(now: Self.t0.adding(seconds: 700), crashRecord: nil)
        #expect(afterTenMinutes == nil)
    }

    @Test func exitClearsTheCountAtOnce() {
        var ledger = StartLedger()
        for second in 0..<3 { _ = ledger.begin(now: Self.t0.adding(seconds: Int64(second)), crashRecord: nil) }
        #expect(ledger.running?.safeMode == true)
        ledger.exitSafeMode()
        ledger.stoppedCleanly()
        var next = Self.reread(ledger)
        let afterExit = next.begin(now: Self.t0.adding(seconds: 3), crashRecord: nil)
        #expect(afterExit == nil)
    }

    @Test(arguments: [
        #"{"crashed_starts": 9223372036854775807, "running": {"started_at": 9223372036854775807}}"#,
        #"{"crashed_starts": -5, "running": {"started_at": -9223372036854775807}}"#,
        #"{"crashed_starts": "two", "running": 7, "last_error": 12}"#,
        #"[]"#,
    ])
    func numbersFromTheFileAreBoundedBeforeArithmetic(_ text: String) {
        var ledger = StartLedger(restoring: try! JSONParser().parse(Array(text.utf8)))
        #expect((0...StartLedger.countCap).contains(ledger.crashedStarts))
        _ = ledger.settleDeadline
        _ = ledger.settle(now: Self.t0)
        _ = ledger.begin(now: Self.t0, crashRecord: nil)
        #expect(ledger.settleDeadline == Self.t0.adding(seconds: StartLedger.settleSeconds))
    }
}
