import Foundation
import Glibc
import NoiseClockCore
import Testing

extension TimingSuite.Clock {
    /// Discovery over the node's life: Home Assistant's birth message (answered after a random
    /// 1–5 s, measured: hence in TimingSuite), and turning discovery off.
    struct HomeAssistantNodeLifecycleTests {
        /// The retained state topics, relative to `~/`, that follow the configs after a birth.
        static let stateTopics = ["alarms", "alarm", "style", "noise", "sounds", "battery"]

        @Test func aBirthMessageRepublishesEveryConfigThenTheState() async throws {
            let rig = try await HomeAssistantRig()
            let announced = try await rig.retainedConfigs()
            try await rig.client.barrier(rig.root)
            let mark = rig.client.messages.count
            let born = Date()
            // What Home Assistant sends when it starts: `online`, not retained.
            rig.client.publish("\(HomeAssistantRig.prefix)/status", "online")

            let first = try await rig.client.waitFor(rig.configTopic("switch", "noise"), timeout: 8, after: mark)
            let delay = first.at.timeIntervalSince(born)
            #expect(delay >= 1 && delay <= 6, "configs re-published \(delay) s after the birth message")
            for topic in announced.keys {
                try await rig.client.waitFor(topic, timeout: 5, after: mark, where: { !$0.payload.isEmpty })
            }
            for suffix in Self.stateTopics {
                try await rig.waitForState(suffix, after: mark, timeout: 5) { _ in true }
            }
            // Configs first, then state: an entity exists before its first value arrives.
            let after = Array(rig.client.messages.dropFirst(mark))
            let lastConfig = try #require(after.lastIndex { announced[$0.topic] != nil })
            let firstState = try #require(after.firstIndex { Self.stateTopics.map { "\(rig.root)/\($0)" }.contains($0.topic) })
            #expect(lastConfig < firstState)
        }

        @Test func discoveryOffClearsTheConfigsAnEarlierRunLeft() async throws {
            let broker = try TestBroker()
            let first = try await HomeAssistantRig(broker: broker)
            _ = try await first.addAlarm(label: "Wake up")
            // 20 of v1 and the wake curve, 6 of the sleep programmes, 7 of v1.2 (the light, the alarm's sunrise and
            // speak-time switch, alarm ready, speak time, say, speech status), 2 of v1.3 (now playing, the alarm's sound),
            // 1 of v1.4 (safe mode)
            #expect(try await first.retainedConfigs().count == 36)
            first.node.signal(SIGTERM)
            #expect(first.node.waitForExit() == 0)

            // The same node (same id and state) restarted with discovery turned off. Its battery is
            // not there this time (unplugged, or just not read yet when the node connects): the
            // battery entities the first run announced must go as well.
            let second = try await HomeAssistantRig(
                broker: broker, battery: false,
                environment: ["NOISECLOCK_HOME_ASSISTANT_DISCOVERY": "false", "NOISECLOCK_STATE_DIR": first.node.stateDirectory.path],
                waitForDiscovery: false
            )
            let left = try await second.waitUntilRetainedConfigs(timeout: 10) { $0.isEmpty }
            #expect(left.isEmpty, "still retained: \(left.keys.sorted())")
            // It clears and announces nothing: every config it sent (live, not retained) is empty.
            let announced = second.client.messages.filter {
                !$0.retain && $0.topic.hasPrefix(HomeAssistantRig.prefix + "/") && !$0.payload.isEmpty
            }.map(\.topic)
            #expect(announced.isEmpty, "\(announced)")
        }

        @Test func configsAnEarlierRunLeftForEntitiesThatAreGoneAreCleared() async throws {
            let broker = try TestBroker()
            // What a node leaves behind when its alarm file was lost (moved aside as corrupt) or its
            // battery removed: configs for entities it no longer has.
            let planter = try await TestClient(port: broker.port, subscriptions: [])
            defer { planter.shutdown() }
            let stale = ["\(HomeAssistantRig.prefix)/switch/testnode/alarm_gone_enabled/config",
                         "\(HomeAssistantRig.prefix)/text/testnode/alarm_gone_time/config",
                         "\(HomeAssistantRig.prefix)/sensor/testnode/battery/config"]
            for topic in stale { planter.publish(topic, #"{"name": "stale", "unique_id": "\#(topic)"}"#, retain: true) }
            // Another node's configs are not this node's business.
            let other = "\(HomeAssistantRig.prefix)/switch/kitchen/noise/config"
            planter.publish(other, #"{"name": "kitchen noise"}"#, retain: true)

            let rig = try await HomeAssistantRig(broker: broker, battery: false, waitForDiscovery: false)
            // Its own 29 (noise 5, alarm 5, style 3, pause and clock sync 2, audio 1, routine event 1,
            // three timer presets 3, timer end 1, cancel timers 1, the light 1, alarm ready 1, speak time,
            // say and speech status 3, now playing 1, safe mode 1; no alarms, no routines, no battery) and nothing else.
            let configs = try await rig.waitUntilRetainedConfigs(timeout: 10) { configs in
                configs.count == 29 && stale.allSatisfy { configs[$0] == nil }
            }
            #expect(stale.filter { configs[$0] != nil } == [])
            #expect(configs.count == 29, "\(configs.keys.sorted())")
            #expect(try await rig.retained([other])[other] != nil)
        }
    }
}

extension HomeAssistantRig {
    /// Polls the retained configs until `done` holds or `timeout` passes; returns the last seen.
    func waitUntilRetainedConfigs(timeout: Double, _ done: ([String: JSONObject]) -> Bool) async throws -> [String: JSONObject] {
        let deadline = Date().addingTimeInterval(timeout)
        var configs = try await retainedConfigs()
        while !done(configs) && Date() < deadline {
            try await Task.sleep(for: .milliseconds(300))
            configs = try await retainedConfigs()
        }
        return configs
    }
}
