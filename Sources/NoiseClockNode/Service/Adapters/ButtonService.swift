import Glibc
import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle
import Synchronization

/// The local buttons as a service: one reader thread per input device, each reporting its
/// gestures, learned keys and status into the inbox. MQTT buttons need nothing here: their
/// reports arrive as MQTT messages on the client's `buttons` group of topics.
///
/// The board can change while the node runs (`use`, the web app's settings): the readers are
/// stopped and new ones started with its devices, keys and timing. Learn mode may also listen to
/// a device no button reads yet (`learn(seconds:device:)`): a reader with no bindings, stopped at
/// the next change of board (the owner has then bound the key it learned) or at shutdown.
final class ButtonService: Service, Sendable {
    private struct Readers {
        var board: ButtonBoard
        var running: [InputDeviceReader] = []
        /// Readers of devices no button reads, only for learn mode.
        var learners: [InputDeviceReader] = []
        var started = false
        var stopped = false
    }

    private let readers: Mutex<Readers>
    private let inbox: NodeInbox
    private let retrySeconds: Double

    init(board: ButtonBoard, inbox: NodeInbox, retrySeconds: Double = 2) {
        readers = Mutex(Readers(board: board))
        self.inbox = inbox
        self.retrySeconds = retrySeconds
    }

    func run() async throws {
        try readers.withLock { readers in
            readers.started = true
            readers.running = makeReaders(readers.board)
            for reader in readers.running { try reader.start() }
        }
        // Readers report on their own threads; this only waits for the end.
        try? await gracefulShutdown()
        let all = readers.withLock { readers in
            readers.stopped = true
            defer { readers.running = []; readers.learners = [] }
            return readers.running + readers.learners
        }
        for reader in all { reader.stop() }
    }

    /// Reads `board`'s devices from now on; nothing restarts when its bindings and timing are the same.
    func use(_ board: ButtonBoard) {
        readers.withLock { readers in
            guard board.definitions != readers.board.definitions || board.timing != readers.board.timing else { return }
            readers.board = board
            guard readers.started, !readers.stopped else { return }
            // A FIFO or device read by two threads would split its records: the old ones go first.
            for reader in readers.running + readers.learners { reader.stop() }
            readers.learners = []
            readers.running = makeReaders(board)
            for reader in readers.running { try? reader.start() }  // a thread that cannot start: the device shows missing
        }
    }

    func learn(seconds: Double, device: String?) {
        readers.withLock { readers in
            guard readers.started, !readers.stopped else { return }
            // Only an input device or a FIFO (the tests' devices) is read for a key, never a file.
            if let device, !readers.running.contains(where: { $0.path == device }), Self.isInputDevice(device) {
                if let index = readers.learners.firstIndex(where: { $0.path == device }) {
                    readers.learners.remove(at: index).stop()
                }
                let learner = InputDeviceReader(
                    path: device, panel: ButtonPanel(bindings: []), retrySeconds: retrySeconds, onStatus: { _ in },
                    onEvent: { [inbox] event in
                        if case .learned(let key) = event { inbox.send(.button(.learned(key))) }
                    })
                guard (try? learner.start()) != nil else { return }
                readers.learners.append(learner)
            }
            for reader in readers.running + readers.learners { reader.learn(seconds: seconds) }
        }
    }

    static func isInputDevice(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFCHR || info.st_mode & S_IFMT == S_IFIFO
    }

    private func makeReaders(_ board: ButtonBoard) -> [InputDeviceReader] {
        board.panels(timing: board.timing).map { [inbox, retrySeconds] device, panel in
            InputDeviceReader(
                path: device, panel: panel, retrySeconds: retrySeconds,
                onStatus: { status in
                    switch status {
                    case .connected: inbox.send(.button(.device(path: device, .init(connected: true, error: nil))))
                    case .missing(let reason): inbox.send(.button(.device(path: device, .init(connected: false, error: reason))))
                    }
                },
                onEvent: { event in
                    switch event {
                    case .gesture(let button, let gesture): inbox.send(.button(.gesture(button: button, gesture)))
                    case .learned(let key): inbox.send(.button(.learned(key)))
                    }
                })
        }
    }
}
