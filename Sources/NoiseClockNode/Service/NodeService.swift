import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import ServiceLifecycle

/// The node as a long-lived service: owns the MQTT client and the wake-up timer, and feeds
/// their events one by one to the `NodeRuntime`. Graceful shutdown publishes `offline`.
public final class NodeService: Service, @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable and itself thread-safe; the mutable
    // runtime lives only inside `run()`.
    private let mqtt: MQTTClient
    private let timer: WakeTimer
    private let audio: AudioEngine?
    private let battery: SysfsBattery
    private let batteryPollSeconds: Int
    private let notifier: SystemdNotifier
    private let topics: TopicScheme
    private let logger: Logger
    private let makeRuntime: @Sendable (MQTTClient) -> NodeRuntime

    init(mqtt: MQTTClient, timer: WakeTimer, audio: AudioEngine?, battery: SysfsBattery, batteryPollSeconds: Int,
         notifier: SystemdNotifier, topics: TopicScheme, logger: Logger,
         makeRuntime: @escaping @Sendable (MQTTClient) -> NodeRuntime) {
        self.notifier = notifier
        self.mqtt = mqtt
        self.timer = timer
        self.audio = audio
        self.battery = battery
        self.batteryPollSeconds = batteryPollSeconds
        self.topics = topics
        self.logger = logger
        self.makeRuntime = makeRuntime
    }

    private func notify(_ message: (SystemdNotifier) throws -> Void) {
        guard notifier.isEnabled else { return }
        do {
            try message(notifier)
        } catch {
            logger.warning("\(error)")
        }
    }

    public func run() async throws {
        let (events, input) = AsyncStream.makeStream(of: NodeEvent.self)
        var runtime = makeRuntime(mqtt)
        timer.start()
        audio?.start()
        mqtt.start()
        timer.arm(at: runtime.nextDeadline)
        notify { try $0.ready(status: "running as \(self.topics.root)") }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await event in self.mqtt.events { input.yield(.mqtt(event)) }
                }
                group.addTask {
                    for await event in self.timer.events { input.yield(.timer(event)) }
                }
                if let audio = self.audio {
                    group.addTask {
                        for await status in audio.statuses { input.yield(.audio(status)) }
                    }
                }
                if let interval = self.notifier.watchdogInterval {
                    group.addTask {
                        while !Task.isCancelled {
                            input.yield(.watchdog)
                            try? await Task.sleep(for: interval)
                        }
                    }
                }
                group.addTask {
                    // sysfs is cheap to read: poll it so level and charging changes go out promptly.
                    var battery = self.battery
                    while !Task.isCancelled {
                        input.yield(.battery(battery.read()))
                        try? await Task.sleep(for: .seconds(self.batteryPollSeconds))
                    }
                }
                for await event in events {
                    switch event {
                    case .mqtt(.connected): runtime.connected()
                    case .mqtt(.disconnected): runtime.disconnected()
                    case .mqtt(.message(let message)): runtime.message(message)
                    case .timer(.wake): runtime.tick(clockChanged: false)
                    case .timer(.clockChanged): runtime.tick(clockChanged: true)
                    case .battery(let reading): runtime.battery(reading)
                    case .audio(let status): runtime.audioStatus(status)
                    case .watchdog:
                        self.notify { try $0.watchdog() }
                        continue
                    case .shutdown:
                        input.finish()
                        continue
                    }
                    self.timer.arm(at: runtime.nextDeadline)
                }
                self.logger.info("shutting down")
                self.notify { try $0.stopping() }
                group.cancelAll()
                self.mqtt.shutdown(finalMessage: (self.topics.topic("availability"), Array("offline".utf8), true))
                self.timer.stop()
                self.audio?.stop()
            }
        } onGracefulShutdown: {
            input.yield(.shutdown)
        }
    }
}
