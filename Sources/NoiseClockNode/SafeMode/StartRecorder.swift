import CCrashRecord
import Glibc
import Logging
import NoiseClockCore
import NoiseClockPlatform
import Synchronization

/// Keeps `<state_dir>/starts.json` (mqtt-api v1.4, "Safe mode") by `StartLedger`'s rule: read and
/// written at start (the crash handler armed to record a crash's signal in `crash-signal`), once
/// more when the start is 10 minutes old on the node's clock, at a clean stop, and at
/// `safe_mode/exit`. Written as every state file is (`StateStore.write`: atomic, synced).
final class StartRecorder: Sendable {
    static let fileName = "starts.json"
    /// What the crash handler writes; read (and removed) at the next start.
    static let crashFileName = "crash-signal"

    private let store: StateStore
    private let logger: Logger
    private let ledger: Mutex<StartLedger>
    /// The safe mode this start runs in; nil for a normal start.
    let safeMode: SafeModeStatus?

    /// Counts the last start (crashed or not) and records this one as running.
    init(store: StateStore, now: Instant, logger: Logger) {
        self.store = store
        self.logger = logger
        var ledger: StartLedger
        switch store.load(Self.fileName, now: now) {
        case .document(let document): ledger = StartLedger(restoring: document)
        case .missing: ledger = StartLedger()
        case .corrupt(let reason, let movedTo):
            logger.error("starts.json unreadable; moved aside, counting from 0", metadata: ["reason": "\(reason)", "moved_to": "\(movedTo)"])
            ledger = StartLedger()
        }
        let crashPath = store.path(of: Self.crashFileName)
        let record = FileBytes.contents(of: crashPath, limit: 512)
            .flatMap { String(decoding: $0, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) }
        safeMode = ledger.begin(now: now, crashRecord: record)
        self.ledger = Mutex(ledger)
        unlink(crashPath)
        save(ledger)
        if noiseclock_crash_record_install(crashPath) != 0 {
            logger.warning("a crash's signal cannot be recorded: the state_dir path is too long", metadata: ["path": "\(crashPath)"])
        }
        if let safeMode {
            let message = "safe mode: the node crashed at \(safeMode.crashedStarts) starts in a row; stations, the sounds folder, "
                + "speech, the lamp, the shaker and the readiness probes are off; alarms ring built-in sounds "
                + "(ends after 10 minutes and a restart, or at once on ~/safe_mode/exit)"
            logger.critical("\(message)", metadata: ["last_error": "\(safeMode.lastError ?? "")"])
        }
    }

    /// Called with the node's time after each input: a start 10 minutes old is no longer counted.
    func tick(now: Instant) {
        let changed = ledger.withLock { (ledger: inout StartLedger) -> StartLedger? in
            ledger.settle(now: now) ? ledger : nil
        }
        guard let changed else { return }
        let message = safeMode == nil ? "start settled: 10 minutes without a crash"
            : "safe mode ran 10 minutes: the next start is a normal one"
        logger.info("\(message)")
        save(changed)
    }

    /// The process stops cleanly.
    func stoppedCleanly() {
        save(ledger.withLock { (ledger: inout StartLedger) in
            ledger.stoppedCleanly()
            return ledger
        })
    }

    /// `safe_mode/exit`: the next start is a normal one.
    func exitSafeMode() {
        save(ledger.withLock { (ledger: inout StartLedger) in
            ledger.exitSafeMode()
            return ledger
        })
    }

    private func save(_ ledger: StartLedger) {
        do {
            try store.write(Self.fileName, ledger.document)
        } catch {
            logger.error("starts.json not saved: crashed starts cannot be counted", metadata: ["error": "\(error)"])
        }
    }
}
