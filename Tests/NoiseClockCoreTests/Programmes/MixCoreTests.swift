import Testing
@testable import NoiseClockCore

/// Mixes on the core: set and delete, in `~/sounds`, usable wherever a noise sound is, scaled
/// so the sum keeps one noise's power, and a deleted playing mix falls back to its first layer.
@Suite struct MixCoreTests {
    static let rainyBrown = #"{"id": "rainy_brown", "name": "Rainy brown", "layers": [{"sound": "rain", "volume": 70}, {"sound": "brown", "volume": "#
        + #"100}]}"#

    @Test func aMixIsListedUnderNoiseWithItsLayers() throws {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        #expect(h.ok("mix/set", Self.rainyBrown)["name"] == "Rainy brown")
        let noise = try #require(h.retained("sounds")?["noise"]?.arrayValue)
        let entry = try #require(noise.last)
        #expect(entry["id"] == "rainy_brown" && entry["category"] == "mix")
        #expect(entry["layers"] == [["sound": "rain", "volume": 70], ["sound": "brown", "volume": 100]])
        #expect(h.retained("sounds")?["alarm"]?.arrayValue?.contains { $0["id"] == "rainy_brown" } == false)
    }

    @Test(arguments: [
        (#"{"id": "brown", "layers": [{"sound": "rain"}, {"sound": "pink"}]}"#, "id"),
        (#"{"id": "Bad Id", "layers": [{"sound": "rain"}, {"sound": "pink"}]}"#, "id"),
        (#"{"id": "m", "layers": [{"sound": "rain"}]}"#, "layers"),
        (#"{"id": "m", "layers": [{"sound": "rain"}, {"sound": "pink"}, {"sound": "white"}, {"sound": "brown"}, {"sound": "rain"}]}"#, "layers"),
        (#"{"id": "m", "layers": [{"sound": "rain"}, {"sound": "classic"}]}"#, "layers"),
        (#"{"id": "m", "layers": [{"sound": "rain", "volume": 101}, {"sound": "pink"}]}"#, "volume"),
        (#"{"id": "m", "name": 3, "layers": [{"sound": "rain"}, {"sound": "pink"}]}"#, "name"),
    ])
    func refusesBadMixes(json: String, field: String) {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        #expect(h.refused("mix/set", json)?.field == field)
        #expect(h.core.mixes.mixes.isEmpty)
    }

    @Test func aMixIsNotALayerOfAnotherAndThereAreAtMostTwenty() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("mix/set", Self.rainyBrown)
        #expect(h.refused("mix/set", #"{"id": "m", "layers": [{"sound": "rainy_brown"}, {"sound": "pink"}]}"#)?.code == .unknownSound)
        for index in 1..<20 { h.ok("mix/set", #"{"id": "m\#(index)", "layers": [{"sound": "rain"}, {"sound": "pink"}]}"#) }
        #expect(h.refused("mix/set", #"{"id": "m20", "layers": [{"sound": "rain"}, {"sound": "pink"}]}"#)?.code == .limitExceeded)
        // Replacing one is not a new one.
        h.ok("mix/set", #"{"id": "m1", "layers": [{"sound": "white"}, {"sound": "pink"}]}"#)
    }

    @Test func aMixIsUsableWhereverANoiseSoundIs() throws {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("mix/set", Self.rainyBrown)
        h.ok("noise/sound/set", "rainy_brown")
        h.ok("noise/set", #"{"playing": true, "sound": "rainy_brown", "volume": 50}"#)
        let layers = try #require(h.scene.noise?.layers)
        #expect(layers.map(\.sound) == ["rain", "brown"])
        h.ok("routine/add", #"{"start": "22:00", "sound": "rainy_brown"}"#)
        h.ok("noise/preview", "rainy_brown")
        #expect(h.scene.preview?.layers.count == 2)
        #expect(h.refused("alarm/add", #"{"time": "07:00", "sound": "rainy_brown"}"#)?.code == .unknownSound, "an alarm sound is not a noise")
    }

    /// The one resolver: a plain sound is itself at full gain; a mix's gains follow the square
    /// law of its layer volumes, scaled so the powers add up to the loudest layer's alone.
    @Test func layersKeepTheLoudestLayersPower() throws {
        var catalog = ProgrammeHarness.catalog
        #expect(catalog.noiseLayers(of: "brown") == [AudioScene.Layer(sound: "brown", gain: 1)])
        #expect(catalog.noiseLayers(of: "nope") == nil)
        catalog.mixes = [Mix(id: "m", name: "M", layers: [.init(sound: "rain", volume: 70), .init(sound: "brown", volume: 100)])]
        let layers = try #require(catalog.noiseLayers(of: "m"))
        let power = layers.reduce(0) { $0 + $1.gain * $1.gain }
        #expect(abs(power - 1) < 1e-5)
        #expect(abs(layers[0].gain / layers[1].gain - 0.49) < 1e-5)
        catalog.mixes = [Mix(id: "q", name: "Q", layers: [.init(sound: "rain", volume: 50), .init(sound: "pink", volume: 50)])]
        let quiet = try #require(catalog.noiseLayers(of: "q"))
        #expect(abs(quiet.reduce(0) { $0 + $1.gain * $1.gain } - 0.0625) < 1e-5, "as loud as one layer at 50")
    }

    /// Issue 13's pre-alarm sound takes a mix through the same catalog, and plays it as its layers.
    @Test func aPreAlarmSoundMayBeAMix() throws {
        var h = ProgrammeHarness(now: "2026-11-21T06:00:00+01:00")
        h.ok("mix/set", Self.rainyBrown)
        h.ok("alarm/add", #"{"id": "wake", "time": "07:00", "sound": "classic", "pre_alarm_minutes": 10, "pre_alarm_sound": "rainy_brown"}"#)
        h.run(until: "2026-11-21T06:55:00+01:00")
        let preAlarm = try #require(h.scene.preAlarm)
        #expect(preAlarm.sound == "rainy_brown" && preAlarm.layers.map(\.sound) == ["rain", "brown"])
    }

    @Test func deletingAPlayingMixFallsBackToItsFirstLayer() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("mix/set", Self.rainyBrown)
        h.ok("noise/set", #"{"playing": true, "sound": "rainy_brown"}"#)
        h.ok("routine/add", #"{"id": "r", "start": "22:00", "sound": "rainy_brown"}"#)
        #expect(h.ok("mix/delete", "rainy_brown")["id"] == "rainy_brown")
        #expect(h.noise["sound"] == "rain" && h.noise["playing"] == true)
        #expect(h.scene.noise?.layers == [AudioScene.Layer(sound: "rain", gain: 1)])
        #expect(h.retained("routines")?.arrayValue?.first?["sound"] == "rain")
        #expect(h.retained("sounds")?["noise"]?.arrayValue?.contains { $0["id"] == "rainy_brown" } == false)
        #expect(h.refused("mix/delete", "rainy_brown")?.code == .notFound)
    }

    @Test func mixesSurviveARestart() {
        var h = ProgrammeHarness(now: "2026-11-21T20:00:00+01:00")
        h.ok("mix/set", Self.rainyBrown)
        h.ok("noise/set", #"{"playing": true, "sound": "rainy_brown"}"#)
        h.restart(at: "2026-11-21T20:01:00+01:00")
        #expect(h.core.mixes.mixes.map(\.id) == ["rainy_brown"])
        #expect(h.noise["sound"] == "rainy_brown" && h.scene.noise?.layers.count == 2)
    }
}
