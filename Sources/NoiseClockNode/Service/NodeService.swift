import Logging
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
    private let topics: TopicScheme
    private let logger: Logger
    private let makeRuntime: @Sendable (MQTTClient) -> NodeRuntime

    init(mqtt: MQTTClient, timer: WakeTimer, topics: TopicScheme, logger: Logger,
         makeRuntime: @escaping @Sendable (MQTTClient) -> NodeRuntime) {
        self.mqtt = mqtt
        self.timer = timer
        self.topics = topics
        self.logger = logger
        self.makeRuntime = makeRuntime
    }

    public func run() async throws {
        let (events, input) = AsyncStream.makeStream(of: NodeEvent.self)
        var runtime = makeRuntime(mqtt)
        timer.start()
        mqtt.start()
        timer.arm(at: runtime.nextDeadline)
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await event in self.mqtt.events { input.yield(.mqtt(event)) }
                }
                group.addTask {
                    for await event in self.timer.events { input.yield(.timer(event)) }
                }
                for await event in events {
                    switch event {
                    case .mqtt(.connected): runtime.connected()
                    case .mqtt(.disconnected): break
                    case .mqtt(.message(let message)): runtime.command(message)
                    case .timer(.wake): runtime.tick(clockChanged: false)
                    case .timer(.clockChanged): runtime.tick(clockChanged: true)
                    case .shutdown:
                        input.finish()
                        continue
                    }
                    self.timer.arm(at: runtime.nextDeadline)
                }
                self.logger.info("shutting down")
                self.mqtt.shutdown(finalMessage: (self.topics.topic("availability"), Array("offline".utf8), true))
                self.timer.stop()
            }
        } onGracefulShutdown: {
            input.yield(.shutdown)
        }
    }
}
