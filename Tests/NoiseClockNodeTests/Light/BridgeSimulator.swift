import Foundation
import Logging
import NoiseClockCore
import NoiseClockMQTT
import Synchronization

/// The far end of a lamp or plug, played as its bridge documents it: Zigbee2MQTT answers a
/// `<topic>/set` with the device's state on `<topic>`; Tasmota answers `cmnd/<topic>/…` on
/// `stat/<topic>/RESULT` (and `stat/<topic>/POWER` for a POWER command). A `silent` device
/// takes the commands and says nothing (a plug that is unplugged, a lamp out of range) until
/// `silent` is set false (plugged in again).
final class BridgeSimulator: @unchecked Sendable {
    struct Command: Sendable {
        let topic: String
        let payload: String
        let at: Date
        var json: JSONValue? { try? JSONParser().parse(payload) }
    }

    let device: DeviceEndpoint
    var silent: Bool {
        get { log.quiet.withLock { $0 } }
        set { log.quiet.withLock { $0 = newValue } }
    }
    private let client: MQTTClient
    /// Shared with the pump task, hence a class around the mutex. Every change (a command, a
    /// probe back) wakes the waits registered in `watchers`: they wait for a signal, not a poll.
    final class Log: Sendable {
        struct Contents {
            var commands: [Command] = []
            /// The power last set: what a state query (`DeviceEndpoint.stateQuery`) is answered with.
            var power = "OFF"
            var syncs = 0
            var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
            var nextWatcher = 0
        }
        let contents = Mutex(Contents())
        let quiet = Mutex(false)

        func change(_ body: (inout Contents) -> Void) {
            let watchers = contents.withLock { contents in
                body(&contents)
                return Array(contents.watchers.values)
            }
            for watcher in watchers { watcher.yield() }
        }

        /// The first non-nil `found` of the contents, now or after a later change; nil after `timeout`.
        func wait<T: Sendable>(timeout: Double, _ found: @escaping @Sendable (Contents) -> T?) async throws -> T? {
            let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            // Registered in the same lock as the first look, so a change in between still wakes it.
            let (id, now) = contents.withLock { contents in
                let id = contents.nextWatcher
                contents.nextWatcher += 1
                contents.watchers[id] = continuation
                return (id, found(contents))
            }
            defer {
                contents.withLock { _ = $0.watchers.removeValue(forKey: id) }
                continuation.finish()
            }
            if let now { return now }
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { [self] in
                    for await _ in changes {
                        if let value = contents.withLock({ found($0) }) { return value }
                    }
                    return nil
                }
                group.addTask {
                    try await Task.sleep(for: .seconds(timeout))
                    return nil
                }
                let first = try await group.next() ?? nil
                group.cancelAll()
                return first
            }
        }
    }

    private let log = Log()
    private var pump: Task<Void, Never>?
    private let probe: String

    init(port: Int, device: DeviceEndpoint, silent: Bool = false) async throws {
        self.device = device
        log.quiet.withLock { $0 = silent }
        var logger = Logger(label: "bridge")
        logger.logLevel = .critical
        let commands = device.bridge == .zigbee2mqtt ? ["\(device.topic)/set", "\(device.topic)/get"] : ["cmnd/\(device.topic)/+"]
        let probe = "noiseclock-test-probe/bridge-\(UUID().uuidString.prefix(8))"
        self.probe = probe
        let (stream, events) = AsyncStream.makeStream(of: MQTTEvent.self)
        client = try MQTTClient(
            options: MQTTOptions(host: "127.0.0.1", port: port, clientID: "bridge-\(UUID().uuidString.prefix(8))", keepaliveSeconds: 10),
            subscriptions: commands + [probe], logger: logger
        ) { events.yield($0) }
        client.start()
        let ready = AsyncStream.makeStream(of: Void.self)
        let mqtt = client
        let log = log
        pump = Task { [device] in
            for await event in stream {
                switch event {
                case .connected: mqtt.publish(topic: probe, payload: [], qos: 1, retain: false)
                case .message(let message) where message.topic == probe:
                    ready.continuation.yield()
                    log.change { $0.syncs += 1 }
                case .message(let message):
                    let text = String(decoding: message.payload, as: UTF8.self)
                    let replies = Self.replies(device, topic: message.topic, payload: text)
                    let power = log.contents.withLock { contents in
                        if let said = Self.power(device, replies) { contents.power = said }
                        return contents.power
                    }
                    log.change { $0.commands.append(Command(topic: message.topic, payload: text, at: Date())) }
                    guard !log.quiet.withLock({ $0 }) else { continue }
                    let answer = Self.isQuery(device, topic: message.topic, payload: text) ? Self.state(device, power: power) : replies
                    for (topic, reply) in answer {
                        mqtt.publish(topic: topic, payload: Array(reply.utf8), qos: 1, retain: false)
                    }
                default: break
                }
            }
        }
        var iterator = ready.stream.makeAsyncIterator()
        _ = await iterator.next()
    }

    var commands: [Command] { log.contents.withLock { $0.commands } }

    /// Returns once everything the broker had for this device when called has arrived: the
    /// broker forwards in order, so a message of the bridge's own, sent now, comes back after it.
    /// (After `AlarmRig.barrier`, that is everything the node has sent.)
    func sync(timeout: Double = 10) async throws {
        let before = log.contents.withLock { $0.syncs }
        client.publish(topic: probe, payload: [], qos: 1, retain: false)
        guard try await log.wait(timeout: timeout, { $0.syncs > before ? true : nil }) != nil else {
            throw TestFailure("bridge sync timed out")
        }
    }

    /// Waits for the command after the first `after` that `predicate` accepts.
    func waitFor(
        after: Int = 0, timeout: Double = 10, where predicate: @escaping @Sendable (Command) -> Bool = { _ in true }
    ) async throws -> Command {
        let found = try await log.wait(timeout: timeout) { $0.commands.dropFirst(after).first(where: predicate) }
        guard let found else {
            throw TestFailure("no matching command to \(device.topic) within \(timeout) s; got \(commands.dropFirst(after).map(\.payload))")
        }
        return found
    }

    func shutdown() {
        client.shutdown(finalMessage: nil)
        pump?.cancel()
    }

    /// A state query as each bridge documents it: Zigbee2MQTT's `<topic>/get`, Tasmota's `POWER` without a value.
    static func isQuery(_ device: DeviceEndpoint, topic: String, payload: String) -> Bool {
        device.bridge == .zigbee2mqtt ? topic.hasSuffix("/get") : topic.hasSuffix("/POWER") && payload.isEmpty
    }

    /// The device's state, as its bridge reports it on a query.
    static func state(_ device: DeviceEndpoint, power: String) -> [(String, String)] {
        switch device.bridge {
        case .zigbee2mqtt: [(device.topic, #"{"state":"\#(power)"}"#)]
        case .tasmota: [("stat/\(device.topic)/RESULT", #"{"POWER":"\#(power)"}"#), ("stat/\(device.topic)/POWER", power)]
        }
    }

    /// The power the replies to a command leave the device in (nil: they say none).
    static func power(_ device: DeviceEndpoint, _ replies: [(String, String)]) -> String? {
        replies.compactMap { topic, payload in device.reportedPower(topic: topic, payload: Array(payload.utf8)).map { $0 ? "ON" : "OFF" } }.last
    }

    /// What the bridge publishes for one command.
    static func replies(_ device: DeviceEndpoint, topic: String, payload: String) -> [(String, String)] {
        switch device.bridge {
        case .zigbee2mqtt:
            guard case .object(var state)? = try? JSONParser().parse(payload) else { return [] }
            state["transition"] = nil
            return [(device.topic, JSONValue.object(state).serialized)]
        case .tasmota:
            if topic.hasSuffix("/POWER") {
                return [("stat/\(device.topic)/RESULT", #"{"POWER":"\#(payload)"}"#), ("stat/\(device.topic)/POWER", payload)]
            }
            // Backlog: each command answers on RESULT; Dimmer switches the light on.
            var replies: [(String, String)] = []
            for step in payload.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
                let parts = step.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                switch parts[0].uppercased() {
                case "DIMMER": replies.append(("stat/\(device.topic)/RESULT", #"{"POWER":"ON","Dimmer":\#(parts[1])}"#))
                case "CT": replies.append(("stat/\(device.topic)/RESULT", #"{"POWER":"ON","CT":\#(parts[1])}"#))
                case "POWER": replies.append(("stat/\(device.topic)/RESULT", #"{"POWER":"\#(parts[1].uppercased())"}"#))
                case "FADE": replies.append(("stat/\(device.topic)/RESULT", #"{"Fade":"ON"}"#))
                case "SPEED": replies.append(("stat/\(device.topic)/RESULT", #"{"Speed":\#(parts[1])}"#))
                default: break
                }
            }
            return replies
        }
    }
}

extension BridgeSimulator.Command {
    /// The brightness in percent and the colour temperature in mireds the command asks for
    /// (nil for an OFF), in either bridge's units.
    var light: (percent: Double, mireds: Int)? {
        if let json, let brightness = json["brightness"]?.intValue, let mireds = json["color_temp"]?.intValue {
            return (Double(brightness) * 100 / 254, mireds)
        }
        var dimmer: Int?, ct: Int?
        for step in payload.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if step.hasPrefix("Dimmer ") { dimmer = Int(step.dropFirst(7)) }
            if step.hasPrefix("CT ") { ct = Int(step.dropFirst(3)) }
        }
        guard let dimmer, let ct else { return nil }
        return (Double(dimmer), ct)
    }

    var isOff: Bool { json?["state"] == "OFF" || payload.hasSuffix("POWER OFF") || payload == "OFF" }

    /// Seconds the lamp takes to get there.
    var transition: Double {
        if let seconds = json?["transition"]?.intValue { return Double(seconds) }
        if let speed = payload.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }).first(where: { $0.hasPrefix("Speed ") }) {
            return (Double(speed.dropFirst(6)) ?? 0) / 2
        }
        return 0
    }
}
