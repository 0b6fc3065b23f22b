@testable import NoiseClockCore
import Testing

/// The stations feature's effects. `station/test` is an ordinary command of the feature: it
/// changes nothing and asks for one effect, the probe of the address it names
/// (`FeatureEffect.probeStation`); a refusal asks for none. `station/add` with a `directory_id`
/// asks to tell the directory. The machine's side (limits, the deferred answer) is
/// `StationTestMachineTests` and `StationDirectoryMachineTests`.
@Suite struct StationEffectTests {
    static let context = FeatureContext(now: Instant(seconds: 0), zone: MachineRig.zone, locale: .en, catalog: .empty)

    static func feature() -> StationsFeature {
        var feature = StationsFeature()
        var outbox: [Publication] = []
        let add = FeatureMessage(StationCommand.add, #"{"id": "jazz", "name": "Jazz", "url": "http://radio.example:8000/jazz.mp3"}"#)
        _ = feature.handle(add, context: context, outbox: &outbox)
        return feature
    }

    static func test(_ feature: inout StationsFeature, _ text: String) -> (Result<JSONValue, CommandError>, [Publication], [FeatureEffect]) {
        var outbox: [Publication] = []
        var effects: [FeatureEffect] = []
        let message = FeatureMessage(StationCommand.test, text)
        let result = feature.handle(message.command, message.payload, context: context, outbox: &outbox, effects: &effects)
        return (result, outbox, effects)
    }

    @Test(arguments: [
        ("jazz", "http://radio.example:8000/jazz.mp3"), (#"{"id": "JAZZ", "request_id": 1}"#, "http://radio.example:8000/jazz.mp3"),
        (#"{"url": "https://radio.example/live.m3u8"}"#, "https://radio.example/live.m3u8"),
    ])
    func aTestAsksForTheProbeOfItsAddressAndChangesNothing(payload: String, url: String) {
        var feature = Self.feature()
        let before = feature
        let (result, outbox, effects) = Self.test(&feature, payload)
        #expect(result == .success(.null))
        #expect(effects == [.probeStation(url: url)])
        #expect(outbox.isEmpty && feature == before)
    }

    @Test(arguments: ["nope", #"{"url": "ftp://x/a"}"#, #"{"id": "jazz", "b": 1}"#, ""])
    func aRefusedTestAsksForNothing(payload: String) {
        var feature = Self.feature()
        let (result, _, effects) = Self.test(&feature, payload)
        #expect(effects.isEmpty)
        guard case .failure = result else { Issue.record("\(payload) was taken"); return }
    }

    @Test func inSafeModeNoStationIsTested() {
        var feature = Self.feature()
        feature.safeMode = true
        let (result, _, effects) = Self.test(&feature, "jazz")
        #expect(effects.isEmpty)
        guard case .failure(let error) = result else { Issue.record("taken in safe mode"); return }
        #expect(error.code == .streamUnavailable)
    }

    @Test func anAddWithADirectoryIDAsksToTellTheDirectoryAndOneWithoutDoesNot() {
        var feature = StationsFeature()
        var outbox: [Publication] = []
        var effects: [FeatureEffect] = []
        let chosen = FeatureMessage(StationCommand.add, #"{"name": "Swiss Jazz", "url": "http://a.example/", "directory_id": "a1b2"}"#)
        _ = feature.handle(chosen.command, chosen.payload, context: Self.context, outbox: &outbox, effects: &effects)
        #expect(effects == [.tellDirectory(id: "a1b2")])
        effects = []
        let typed = FeatureMessage(StationCommand.add, #"{"id": "mine", "name": "Mine", "url": "http://b.example/"}"#)
        _ = feature.handle(typed.command, typed.payload, context: Self.context, outbox: &outbox, effects: &effects)
        #expect(effects.isEmpty && feature.stations.count == 2)
    }
}
