import Foundation
import Testing
@testable import NoiseClockCore

/// Each rule between features (`FeatureRule`) tested by its name: one test per case, named as the
/// case, on the pure core with a test clock; and a check that no rule goes untested or unwritten.
@Suite struct FeatureRuleTests {
    static let jazz = #"{"id": "jazz", "name": "Jazz", "url": "http://x/jazz"}"#

    @Test func everyRuleHasATestOfItsNameAndAFunctionOfItsNameInRules() throws {
        let here = URL(fileURLWithPath: #filePath)
        let tests = try String(contentsOf: here, encoding: .utf8)
        let rules = try ArchitectureDocTests.swiftFiles(under: "Sources/NoiseClockCore/Rules").map(\.text).joined()
        for rule in FeatureRule.allCases {
            #expect(tests.contains("@Test func \(rule.rawValue)()"), "FeatureRule.\(rule.rawValue) has no test of its name")
            #expect(rules.contains("func \(rule.rawValue)("), "FeatureRule.\(rule.rawValue) is not written in Rules/")
        }
    }

    @Test func aStationInUseIsNotDeleted() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("station/add", Self.jazz)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "radio:jazz"}"#)
        let refusal = h.refused("station/delete", "jazz")
        #expect(refusal?.code == .inUse && refusal?.message.contains("alarm wake") == true)
        #expect(h.core.stations.station("jazz") != nil, "refused: nothing changed")
        h.ok("alarm/delete", "wake")
        h.ok("station/delete", "jazz")
    }

    @Test func theHandOverridesTheRoutine() {
        var h = ProgrammeHarness(now: "2026-11-21T22:00:00+01:00")
        h.ok("routine/add", #"{"id": "bed", "start": "22:30", "end": "06:45", "sound": "rain", "volume": 30}"#)
        h.run(until: "2026-11-21T23:00:00+01:00")
        #expect(h.noise["routine"] == "bed")
        _ = h.take("routine/event")
        #expect(h.ok("noise/volume/set", "55")["routine"] == .null, "the answer shows the noise after the rule")
        #expect(h.take("routine/event") == ["overridden bed"])
        #expect(h.noise["playing"] == true && h.noise["volume"] == 55)
    }

    @Test func aDeletedSoundGivesWay() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("mix/set", #"{"id": "storm", "layers": [{"sound": "rain"}, {"sound": "pink"}]}"#)
        h.ok("station/add", Self.jazz)
        h.ok("routine/add", #"{"id": "bed", "start": "22:30", "sound": "storm"}"#)
        h.ok("routine/add", #"{"id": "nap", "start": "13:30", "sound": "radio:jazz"}"#)
        h.ok("noise/set", #"{"playing": true, "sound": "storm"}"#)
        h.ok("mix/delete", "storm")
        #expect(h.noise["sound"] == "rain", "a mix gives way to its first layer")
        h.ok("noise/set", #"{"sound": "radio:jazz"}"#)
        h.ok("station/delete", "jazz")
        #expect(h.noise["sound"] == .string(NoiseState.defaults.sound), "a station gives way to the default noise")
        let sounds = h.core.routines.routines.map(\.sound)
        #expect(sounds == ["rain", NoiseState.defaults.sound], "\(sounds)")
    }

    @Test func theLampIsToldAtOnce() {
        var h = ProgrammeHarness(now: "2026-11-23T06:00:00+01:00", devices: SunriseCoreTests.lamp)
        let answer = h.ok("light/set", #"{"brightness": 30, "kelvin": 2700}"#)
        #expect(answer["confirmed"] == false, "the answer says the lamp has not answered yet")
        #expect(h.takeDeviceCommands().map(\.topic) == ["zigbee2mqtt/lamp/set"], "told within the command, before any advance")
    }

    @Test func theGroupsHearASnoozeOrDismiss() throws {
        var h = ProgrammeHarness(now: "2026-11-23T06:59:00+01:00")
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "group": "family"}"#)
        h.run(until: "2026-11-23T07:00:00+01:00")
        h.outbox.removeAll()
        h.ok("alarm/snooze")
        let told = h.bodies("groups/family/ring")
        #expect(told.map { $0["action"] } == ["snooze"] && told.first?["alarm_id"] == "wake")
        // A dismiss that came from the group itself is not passed on (nothing loops back).
        h.outbox.removeAll()
        let message = try #require(h.core.groupAction(group: "family", payload: ["action": "dismiss", "node": "other"]))
        _ = h.core.handle(message, now: h.now, outbox: &h.outbox, fromGroup: true)
        #expect(h.core.alarms.ring == nil && h.bodies("groups/family/ring").isEmpty)
    }

    @Test func aStationRingIsConnectedEarly() {
        var h = ProgrammeHarness(now: "2026-11-23T06:50:00+01:00")
        h.ok("station/add", Self.jazz)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "radio:jazz"}"#)
        h.advance(to: "2026-11-23T06:59:29+01:00")
        #expect(h.scene.preroll == nil)
        h.advance(to: "2026-11-23T06:59:30+01:00")
        #expect(h.scene.preroll?.sound == "radio:jazz", "30 s early (stream.preroll_seconds)")
    }

    @Test func theNoiseFollowsTheRoutine() {
        var h = ProgrammeHarness(now: "2026-11-23T19:00:00+01:00")
        h.ok("routine/add", ##"{"id": "bed", "start": "19:30", "end": "20:00", "sound": "rain", "fade_in_seconds": 0, "##
            + ##""face": {"digit_color": "#FF0000"}}"##)
        h.run(until: "2026-11-23T19:30:00+01:00")
        #expect(h.noise["playing"] == true && h.noise["sound"] == "rain" && h.noise["routine"] == "bed")
        #expect(h.retained("style")?["digit_color"] == "#FF0000", "the face follows too")
    }

    @Test func aFinishedTimerRings() {
        var h = ProgrammeHarness(now: "2026-11-23T14:00:00+01:00")
        h.ok("timer/start", #"{"minutes": 1, "sound": "chime"}"#)
        h.run(until: "2026-11-23T14:01:00+01:00")
        #expect(h.core.alarms.ring?.source == .timer && h.core.alarms.ring?.phase == .ringing)
    }

    @Test func theLightFollowsTheSunriseAndRoutine() {
        var h = ProgrammeHarness(now: "2026-11-23T19:00:00+01:00", devices: SunriseCoreTests.lamp)
        h.ok("routine/add", ##"{"id": "stay", "start": "19:30", "end": "20:00", "sound": "none", "light": {"brightness": 5, "color": "#FF0000"}}"##)
        h.run(until: "2026-11-23T19:30:00+01:00")
        #expect(h.retained("light")?["source"] == "routine" && h.retained("light")?["brightness"] == 5)
        #expect(h.takeDeviceCommands().last?.topic == "zigbee2mqtt/lamp/set", "and the lamp is told")
    }

    @Test func theDevicesFollowTheNode() {
        var h = ProgrammeHarness(now: "2026-11-23T06:59:00+01:00", devices: SunriseCoreTests.lamp)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "vibrate": true}"#)
        h.run(until: "2026-11-23T07:00:00+01:00")
        #expect(h.takeDeviceCommands() == [DeviceCommand(topic: "zigbee2mqtt/plug/set", payload: #"{"state":"ON"}"#)])
    }

    @Test func aSafeModeRingTriesNoStation() {
        var h = ProgrammeHarness(now: "2026-11-23T06:59:00+01:00")
        h.ok("station/add", Self.jazz)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "radio:jazz"}"#)
        h.core.settings.safeMode = SafeModeStatus(since: h.now, crashedStarts: 3, lastError: "SIGSEGV (signal 11)")
        h.run(until: "2026-11-23T07:00:00+01:00")
        #expect(h.core.alarms.ring?.activeStreamFallback?.cause == "safe_mode", "the fallback tone from the first instant")
    }

    @Test func anUnheardRingFailsOver() {
        var h = ProgrammeHarness(now: "2026-11-23T06:59:00+01:00")
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic"}"#)
        h.core.audioStatus = AudioStatus(device: "default", state: .unavailable, error: "busy")
        h.run(until: "2026-11-23T07:00:00+01:00")
        #expect(h.bodies("alarm/event").contains { $0["event"] == "failed" }, "\(h.bodies("alarm/event"))")
    }
}
