/// What the discovery configs are built from.
struct DiscoveryInputs: Equatable, Sendable {
    var alarms: [Alarm]
    var noiseSounds: [SoundCatalog.Entry]
    var batteryPresent: Bool
    var routines: [Routine] = []
    var timerPresets: [TimerPreset] = []
    var buttons: [String] = []
    var alarmSounds: [SoundCatalog.Entry] = []
}

extension NodeMachine.Draft {
    var discoveryInputs: DiscoveryInputs {
        DiscoveryInputs(
            alarms: core.alarms.book.alarms, noiseSounds: core.soundCatalog.noiseEntries,
            batteryPresent: core.battery.lastPublished?.present ?? false,
            routines: core.routines.routines, timerPresets: core.timers.presets, buttons: machine.features.buttons.definitions.map(\.id),
            alarmSounds: core.soundCatalog.alarm + core.soundCatalog.radioEntries
        )
    }

    /// The battery has been read once: until then the node cannot tell whether its battery
    /// entities are stale.
    var batteryKnown: Bool { core.battery.lastPublished != nil }

    /// Publishes the discovery configs that changed and clears the ones that went away (a deleted
    /// alarm, a battery that disappeared), then any stray config found on the broker. With
    /// discovery off, it announces nothing and clears every config found.
    mutating func syncDiscovery(force: Bool = false) {
        guard machine.online else { return }
        guard machine.discovery.enabled else {
            clearStrayConfigs { _ in true }
            return
        }
        let inputs = discoveryInputs
        if force || inputs != machine.discoveryInputs {
            machine.discoveryInputs = inputs
            var current: [String: [UInt8]] = [:]
            var context = DiscoveryContext(
                nodeID: topics.nodeID, root: topics.root, prefix: machine.discovery.prefix,
                softwareVersion: NoiseClockVersion.current, configurationURL: machine.discovery.configurationURL, alarms: inputs.alarms,
                noiseSounds: inputs.noiseSounds, batteryPresent: inputs.batteryPresent,
                routines: inputs.routines, timerPresets: inputs.timerPresets
            )
            context.buttons = inputs.buttons
            context.alarmSounds = inputs.alarmSounds
            let configs = HomeAssistantDiscovery.configs(context)
            for config in configs {
                let bytes = config.payload.bytes
                current[config.topic] = bytes
                if force || machine.lastDiscovery[config.topic] != bytes { publishAbsolute(config.topic, bytes) }
            }
            for topic in machine.lastDiscovery.keys.sorted() where current[topic] == nil {
                publishAbsolute(topic, [])
            }
            machine.lastDiscovery = current
        }
        machine.strayDiscovery.subtract(machine.lastDiscovery.keys)
        // Battery configs are stale only once the battery has been read and found absent.
        let announced = machine.lastDiscovery
        if batteryKnown { clearStrayConfigs { announced[$0] == nil } }
    }

    private mutating func clearStrayConfigs(where stale: (String) -> Bool) {
        for topic in machine.strayDiscovery.sorted() where stale(topic) {
            publishAbsolute(topic, [])
            machine.strayDiscovery.remove(topic)
        }
    }

    /// A config of this node's arrived from the broker. Retained ones come when the node
    /// subscribes: if it does not announce that entity (any, with discovery off), it clears it,
    /// so entities of an earlier run — a lost alarm file, a removed battery — do not linger.
    /// Live copies of its own publications (not retained) and empty payloads are ignored.
    mutating func foundRetainedConfig(_ message: InboundMessage) {
        guard message.retain, !message.payload.isEmpty else { return }
        guard !machine.discovery.enabled || machine.lastDiscovery[message.topic] == nil else { return }
        machine.strayDiscovery.insert(message.topic)
        syncDiscovery()
    }

    /// Home Assistant (re)started: after a random 1–5 s, so that a house full of nodes does not
    /// answer at once, send every config and then every state again.
    mutating func homeAssistantBirth(_ payload: [UInt8]) {
        guard machine.discovery.enabled,
              String(decoding: payload, as: UTF8.self).trimmingWhitespace().lowercased() == "online" else { return }
        machine.republishAt = now.adding(milliseconds: Int64.random(in: 1000...5000, using: &machine.random))
    }

    /// Carries out a due birth re-publication; checked on every wake-up.
    mutating func republishIfDue() {
        guard let due = machine.republishAt, now >= due else { return }
        machine.republishAt = nil
        syncDiscovery(force: true)
        machine.forgetRetained()
        syncRetained()
    }
}
