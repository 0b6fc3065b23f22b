import NoiseClockCore
import NoiseClockMQTT

extension NodeRuntime {
    func discoveryConfigs() -> [DiscoveryConfig] {
        HomeAssistantDiscovery.configs(DiscoveryContext(
            nodeID: topics.nodeID, root: topics.root, prefix: discovery.prefix,
            softwareVersion: NoiseClockVersion.current, alarms: core.alarms.book.alarms,
            noiseSounds: core.catalog.noise, batteryPresent: core.battery.lastPublished?.present ?? false
        ))
    }

    /// The battery has been read once: until then the node cannot tell whether its battery
    /// entities are stale.
    var batteryKnown: Bool { core.battery.lastPublished != nil }

    /// Publishes the discovery configs that changed and clears the ones that went away (a deleted
    /// alarm, a battery that disappeared), then any stray config found on the broker. With
    /// discovery off, it announces nothing and clears every config found.
    mutating func syncDiscovery(force: Bool = false) {
        guard online else { return }
        guard discovery.enabled else {
            clearStrayConfigs { _ in true }
            return
        }
        var current: [String: [UInt8]] = [:]
        for config in discoveryConfigs() {
            let bytes = config.payload.bytes
            current[config.topic] = bytes
            if force || lastDiscovery[config.topic] != bytes {
                mqtt.publish(topic: config.topic, payload: bytes, qos: 1, retain: true)
            }
        }
        for topic in lastDiscovery.keys where current[topic] == nil {
            mqtt.publish(topic: topic, payload: [], qos: 1, retain: true)
        }
        lastDiscovery = current
        strayDiscovery.subtract(current.keys)
        // Battery configs are stale only once the battery has been read and found absent.
        if batteryKnown { clearStrayConfigs { current[$0] == nil } }
    }

    private mutating func clearStrayConfigs(where stale: (String) -> Bool) {
        for topic in strayDiscovery.sorted() where stale(topic) {
            mqtt.publish(topic: topic, payload: [], qos: 1, retain: true)
            strayDiscovery.remove(topic)
        }
    }

    /// A config of this node's arrived from the broker. Retained ones come when the node
    /// subscribes: if it does not announce that entity (any, with discovery off), it clears it,
    /// so entities of an earlier run — a lost alarm file, a removed battery — do not linger.
    /// Live copies of its own publications (not retained) and empty payloads are ignored.
    mutating func foundRetainedConfig(_ message: MQTTMessage) {
        guard message.retain, !message.payload.isEmpty else { return }
        guard !discovery.enabled || lastDiscovery[message.topic] == nil else { return }
        strayDiscovery.insert(message.topic)
        syncDiscovery()
    }

    /// Home Assistant (re)started: after a random 1–5 s, so that a house full of nodes does not
    /// answer at once, send every config and then every state again.
    mutating func homeAssistantBirth(_ payload: [UInt8]) {
        guard discovery.enabled, String(decoding: payload, as: UTF8.self).trimmingWhitespace().lowercased() == "online" else { return }
        republishAt = clock().adding(milliseconds: Int64.random(in: 1000...5000))
    }

    /// Carries out a due birth re-publication; called on every wake-up.
    mutating func republishIfDue() {
        guard let due = republishAt, clock() >= due else { return }
        republishAt = nil
        syncDiscovery(force: true)
        forgetRetained()
        syncRetained()
    }
}
