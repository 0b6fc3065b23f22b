/// `devices/test` commands waiting for the device's word (the settings page's "Test" for the lamp
/// and the shaker): a state query went to the device, and the first report on one of its state
/// topics answers, or the wait ends after `DeviceConfirmation.withinMilliseconds` (`unconfirmed`).
/// A machine feature, as `StationProbes` is, so the answer echoes the command's `request_id`.
struct DeviceProbes: Sendable {
    /// At most this many at once (each is a command to a device on the network).
    static let limit = 4

    struct Waiting: Sendable {
        var reply: DeferredReply
        var kind: String
        var endpoint: DeviceEndpoint
        var since: Instant
        var answerBy: Instant
    }

    private(set) var waiting: [Waiting] = []

    var isFull: Bool { waiting.count >= Self.limit }

    /// When the first wait runs out.
    var deadline: Instant? { waiting.map(\.answerBy).min() }

    mutating func wait(_ reply: DeferredReply, kind: String, endpoint: DeviceEndpoint, now: Instant) {
        waiting.append(Waiting(reply: reply, kind: kind, endpoint: endpoint, since: now,
                               answerBy: now.adding(milliseconds: DeviceConfirmation.withinMilliseconds)))
    }

    /// The tests a report on `topic` answers (its power, when it says one), taken out of the wait.
    mutating func answered(topic: String, payload: [UInt8]) -> [(test: Waiting, power: Bool)] {
        var found: [(test: Waiting, power: Bool)] = []
        waiting.removeAll { test in
            guard let power = test.endpoint.reportedPower(topic: topic, payload: payload) else { return false }
            found.append((test, power))
            return true
        }
        return found
    }

    /// The tests whose wait ran out by `now`, taken out of the wait.
    mutating func expired(now: Instant) -> [Waiting] {
        let gone = waiting.filter { $0.answerBy <= now }
        waiting.removeAll { $0.answerBy <= now }
        return gone
    }

    /// The result a test answers with: the device's word, or that none came in time.
    static func result(_ test: Waiting, power: Bool?, at now: Instant) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("kind", .string(test.kind)), ("topic", .string(test.endpoint.topic)), ("protocol", .string(test.endpoint.bridge.rawValue)),
        ]
        if let power {
            let milliseconds = now.milliseconds - test.since.milliseconds
            fields += [("status", "confirmed"), ("state", .string(power ? "ON" : "OFF")), ("answered_ms", .int(milliseconds))]
        } else {
            fields += [("status", "unconfirmed"), ("error", .string(
                "no answer on \(test.endpoint.stateTopics.joined(separator: " or ")) within \(DeviceConfirmation.withinMilliseconds / 1000) s"))]
        }
        return .object(JSONObject(fields))
    }
}
