import Testing
@testable import NoiseClockCore

/// What the machine tells the web app: every publication as an observation, retained state
/// while MQTT is down too, and snapshots in the order of the effects.
@Suite struct NodeMachineWebTests {
    @Test func everyPublicationUnderTheRootIsObservedRightAfterIt() {
        var rig = MachineRig(observed: true)
        let effects = rig.step(.connected)
        let own = effects.publications.filter { $0.topic.hasPrefix("noiseclock/bed/") }
        #expect(!own.isEmpty)
        #expect(effects.observations.map(\.suffix) == own.map { String($0.topic.dropFirst("noiseclock/bed/".count)) })
        for (index, effect) in effects.enumerated() {
            guard case .publish(let message) = effect, message.topic.hasPrefix("noiseclock/bed/") else { continue }
            guard case .observe(let observation) = effects[index + 1] else { Issue.record("no observation after \(message.topic)"); continue }
            #expect(observation.payload == message.payload)
        }
        // Discovery configs are not the node's own topics: not observed.
        #expect(!effects.observations.contains { $0.suffix.hasPrefix("homeassistant") })
    }

    @Test func anUnobservedMachineEmitsNoObservations() {
        var rig = MachineRig()
        #expect(rig.step(.connected).observations.isEmpty)
        #expect(rig.command("noise/volume/set", "20").observations.isEmpty)
    }

    @Test func whileMQTTIsDownTheWebAppIsStillToldOfChanges() {
        var rig = MachineRig(observed: true)
        rig.step(.connected)
        let down = rig.step(.disconnected)
        #expect(down.observations == [Observation(suffix: "availability", payload: Array("offline".utf8))])
        let local = rig.step(.request(LocalRequest(id: 7, command: "noise/volume/set", payload: Array("21".utf8))))
        #expect(local.publications.filter { $0.retain }.isEmpty)
        let noise = local.observations.first { $0.suffix == "noise" }
        #expect(noise.map { String(decoding: $0.payload, as: UTF8.self).contains(#""volume":21"#) } == true)
        // Back online, MQTT gets everything again, the new volume included.
        let up = rig.step(.connected)
        #expect(up.json("noiseclock/bed/noise")?["volume"] == .int(21))
    }

    @Test func aSnapshotHoldsAvailabilityEveryRetainedTopicAndTimeNow() throws {
        var rig = MachineRig(observed: true)
        rig.step(.connected)
        let effects = rig.step(.snapshot(requestID: 3))
        guard case .snapshot(3, let entries)? = effects.first(where: { if case .snapshot = $0 { true } else { false } }) else {
            Issue.record("no snapshot"); return
        }
        #expect(entries.first == Observation(suffix: "availability", payload: Array("online".utf8)))
        let suffixes = entries.map(\.suffix)
        for topic in ["alarms", "alarm", "style", "noise", "sounds", "time"] { #expect(suffixes.contains(topic), "\(topic)") }
        let time = try JSONParser().parse(try #require(entries.last).payload)
        #expect(time["epoch"] == .int(rig.now.seconds))
        // A snapshot changes nothing: nothing is published, written or armed.
        #expect(effects.publications.isEmpty)
        #expect(rig.machine.plan(.snapshot(requestID: 4), now: rig.now).writes.isEmpty)
    }

    @Test func theWebAppsAddressIsTheDevicesConfigurationURL() throws {
        var rig = MachineRig(configurationURL: "http://bedside:8080/")
        let configs = rig.step(.connected).publications.filter { $0.topic.hasPrefix("homeassistant/") && !$0.payload.isEmpty }
        #expect(!configs.isEmpty)
        for config in configs {
            let json = try JSONParser().parse(config.payload)
            #expect(json["device"]?["configuration_url"] == .string("http://bedside:8080/"), "\(config.topic)")
        }
        var without = MachineRig()
        let plain = without.step(.connected).publications.filter { $0.topic.hasPrefix("homeassistant/") && !$0.payload.isEmpty }
        #expect(plain.allSatisfy { (try? JSONParser().parse($0.payload))?["device"]?["configuration_url"] == nil })
    }
}
