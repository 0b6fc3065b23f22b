import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle

/// The local buttons as a service: one reader thread per input device, each reporting its
/// gestures, learned keys and status into the inbox. MQTT buttons need nothing here: their
/// reports arrive as MQTT messages on the topics `subscriptions` adds.
final class ButtonService: Service, Sendable {
    private let readers: [InputDeviceReader]

    init(board: ButtonBoard, timing: ButtonTiming, inbox: NodeInbox, retrySeconds: Double = 2) {
        readers = board.panels(timing: timing).map { device, panel in
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

    /// The learn command (both the node's and the group's) and every MQTT button's topic.
    static func subscriptions(board: ButtonBoard, topics: TopicScheme) -> [String] {
        [topics.topic(ButtonBoard.learnCommand), "\(topics.groupRoot)/\(ButtonBoard.learnCommand)"] + board.mqttTopics
    }

    func run() async throws {
        for reader in readers { try reader.start() }
        // Readers report on their own threads; this only waits for the end.
        try? await gracefulShutdown()
        for reader in readers { reader.stop() }
    }

    func learn(seconds: Double) {
        for reader in readers { reader.learn(seconds: seconds) }
    }
}
