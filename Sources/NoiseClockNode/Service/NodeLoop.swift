import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import ServiceLifecycle

/// The node's one loop: takes the inbox's items one at a time, asks the `NodeMachine` what each
/// means at one `now`, writes the state files the plan asks for, and carries out the effects
/// in their order. It decides nothing itself.
final class NodeLoop: Service, Sendable {
    private let inbox: NodeInbox
    private let initial: NodeMachine
    private let store: StateStore
    private let effects: EffectPerformer
    private let notifier: SystemdNotifier
    private let clock: @Sendable () -> Instant
    private let logger: Logger

    init(inbox: NodeInbox, machine: NodeMachine, store: StateStore, effects: EffectPerformer,
         notifier: SystemdNotifier, clock: @escaping @Sendable () -> Instant, logger: Logger) {
        self.inbox = inbox
        initial = machine
        self.store = store
        self.effects = effects
        self.notifier = notifier
        self.clock = clock
        self.logger = logger
    }

    func run() async throws {
        var machine = initial
        effects.perform(machine.start(now: clock()))
        notifier.send(logger: logger) { try $0.ready(status: "running as \(self.initial.topics.root)") }
        for await item in inbox.items.cancelOnGracefulShutdown() {
            switch item {
            case .watchdog:
                notifier.send(logger: logger) { try $0.watchdog() }
            case .input(let input):
                let plan = machine.plan(input, now: clock())
                effects.perform(machine.finish(plan, failure: write(plan.writes)))
            }
        }
        logger.info("shutting down")
        notifier.send(logger: logger) { try $0.stopping() }
        inbox.finish()
    }

    /// Writes the plan's files in order; stops at the first that fails.
    private func write(_ writes: [StateWrite]) -> WriteFailure? {
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
