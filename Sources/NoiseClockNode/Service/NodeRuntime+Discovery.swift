import NoiseClockCore

extension NodeRuntime {
    func discoveryConfigs() -> [DiscoveryConfig] {
        HomeAssistantDiscovery.configs(DiscoveryContext(
            nodeID: topics.nodeID, root: topics.root, prefix: discovery.prefix,
            softwareVersion: NoiseClockVersion.current, alarms: core.alarms.book.alarms,
            noiseSounds: core.catalog.noise, batteryPresent: core.battery.lastPublished?.present ?? false
        ))
    }

    /// Publishes the discovery configs that changed and clears the ones that went away (a deleted
    /// alarm, a battery that disappeared). With discovery off, clears every config once so a
    /// node that had it on leaves no stale entities behind.
    mutating func syncDiscovery(force: Bool = false) {
        guard online else { return }
        let configs = discoveryConfigs()
        guard discovery.enabled else {
            guard !discoveryCleared else { return }
            for config in configs { mqtt.publish(topic: config.topic, payload: [], qos: 1, retain: true) }
            discoveryCleared = true
            return
        }
        var current: [String: [UInt8]] = [:]
        for config in configs {
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
