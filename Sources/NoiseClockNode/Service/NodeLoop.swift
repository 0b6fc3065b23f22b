import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import NoiseClockThreads
import ServiceLifecycle

/// The node's one loop: takes the inbox's items one at a time, asks the `NodeMachine` what each
/// means at one `now`, writes the state files the plan asks for, and carries out the effects
/// in their order. It decides nothing itself.
///
/// It runs on a thread of its own (`node-loop`), which sleeps in `NodeInbox.next` until an
/// adapter's thread sends an input: a timer's wake reaches `plan` in one hand-off, and the state
/// file's `fsync` blocks this thread, never the cooperative pool. `run()` (the `Service`) starts
/// it, waits for graceful shutdown, then ends the inbox and waits for the thread to finish.
final class NodeLoop: Service, Sendable {
    private let inbox: NodeInbox
    private let initial: NodeMachine
    private let store: StateStore
    private let effects: EffectPerformer
    private let notifier: SystemdNotifier
    private let clock: @Sendable () -> Instant
    private let logger: Logger
    /// Told the node's time after each input: a start 10 minutes old no longer counts as crashed.
    private let starts: StartRecorder?
    /// Set when the node stops to start again: systemd is then not told it stops.
    private let restart: NodeRestart?
    private let thread = DedicatedThread(name: "node-loop")

    init(inbox: NodeInbox, machine: NodeMachine, store: StateStore, effects: EffectPerformer,
         notifier: SystemdNotifier, clock: @escaping @Sendable () -> Instant, logger: Logger,
         starts: StartRecorder? = nil, restart: NodeRestart? = nil) {
        self.inbox = inbox
        initial = machine
        self.store = store
        self.effects = effects
        self.notifier = notifier
        self.clock = clock
        self.logger = logger
        self.starts = starts
        self.restart = restart
    }

    func run() async throws {
        let (ended, end) = AsyncStream.makeStream(of: Never.self)
        try thread.start { [self] in
            loop()
            end.finish()
        }
        try? await gracefulShutdown()
        inbox.finish()
        for await _ in ended {}
        thread.join()
    }

    /// The loop's thread: until the inbox is finished.
    private func loop() {
        var machine = initial
        // Until a ring's wake has been rehearsed once (`NodeMachine.rehearseArmedWake`).
        var rehearsed = false
        effects.perform(machine.start(now: clock()))
        notifier.send(logger: logger) { try $0.ready(status: "running as \(self.initial.topics.root)") }
        while let item = inbox.next() {
            switch item {
            case .watchdog:
                notifier.send(logger: logger) { try $0.watchdog() }
            case .input(let input):
                let plan = machine.plan(input, now: clock())
                effects.perform(machine.finish(plan, failure: write(plan.writes)))
                if !rehearsed, plan.effects.contains(where: \.isArming) { rehearsed = machine.rehearseArmedWake() }
            }
            starts?.tick(now: clock())
        }
        logger.info("shutting down")
        // STOPPING=1 would make systemd stop the unit instead of restarting it.
        guard restart?.isRequested != true else { return }
        notifier.send(logger: logger) { try $0.stopping() }
    }

    /// Writes the plan's files in order; stops at the first that fails. A restore (the one plan
    /// that writes `settings.json`) replaces every state file: journalled first, so a kill between
    /// two files is completed at the next start instead of leaving old and new mixed.
    private func write(_ writes: [StateWrite]) -> WriteFailure? {
        let restoring = writes.count > 1 && writes.contains { $0.file == SettingsFile.name }
        if restoring {
            do {
                try RestoreJournal.begin(Dictionary(writes.map { ($0.file, $0.document) }) { $1 }, store: store, owner: nil)
            } catch {
                return WriteFailure(written: 0, message: error.description)
            }
        }
        // Ended whatever happens: a failed write is answered as a failure, not completed at the next start.
        defer { if restoring { RestoreJournal.end(store: store) } }
        for (index, write) in writes.enumerated() {
            do {
                try store.write(write.file, write.document)
            } catch {
                return WriteFailure(written: index, message: error.description)
            }
        }
        return nil
    }
}

extension SystemdNotifier {
    /// Sends one notification if systemd asked for them; a failure is only worth a warning.
    func send(logger: Logger, _ message: (SystemdNotifier) throws -> Void) {
        guard isEnabled else { return }
        do {
            try message(self)
        } catch {
            logger.warning("\(error)")
        }
    }
}
