import Testing
@testable import NoiseClockCore

@Suite struct NoiseFeatureTests {
    static let catalog = SoundCatalog(
        noise: [.init(id: "brown", name: "Brown", category: "noise"), .init(id: "pink", name: "Pink", category: "noise")],
        alarm: [.init(id: "chime", name: "Chime", category: "tone")]
    )
    static let berlin = ZoneRules(identifier: "Europe/Berlin", fixedOffset: 3600)
    let t0 = Instant(seconds: 1_763_705_100)  // 2025-11-21T06:05:00Z

    func context(_ now: Instant) -> FeatureContext {
        FeatureContext(now: now, zone: Self.berlin, locale: .en, catalog: Self.catalog)
    }


    @discardableResult
    func send(_ feature: inout NoiseFeature, _ command: NoiseCommand, _ text: String,
        at now: Instant? = nil) throws -> Result<JSONValue, CommandError> {
        var outbox: [Publication] = []
        return feature.handle(command, try CommandPayload.classify(Array(text.utf8)), context: context(now ?? t0), outbox: &outbox)
    }

    @Test func defaultsAreBrownAtFortyNotPlaying() {
        let feature = NoiseFeature(restoring: nil)
        #expect(feature.state == NoiseState(playing: false, sound: "brown", volume: 40))
        #expect(feature.retained(context: context(t0))[0].body == .json(
            ["playing": false, "sound": "brown", "volume": 40, "sleep_timer_minutes": nil, "stops_at": nil, "routine": nil, "error": nil,
             "station": nil, "title": nil]))
    }

    @Test(arguments: [("ON", true), (" on ", true), ("OFF", false), ("toggle", true)])
    func plainSwitches(text: String, playing: Bool) throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .set, text)
        #expect(feature.state.playing == playing)
    }

    @Test func toggleTwiceStops() throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .set, "TOGGLE")
        try send(&feature, .set, "TOGGLE")
        #expect(feature.state.playing == false)
    }

    @Test func jsonSetChangesOnlyGivenFields() throws {
        var feature = NoiseFeature(restoring: nil)
        let result = try send(&feature, .set, #"{"playing": true, "sound": "pink", "request_id": 4}"#)
        #expect(feature.state == NoiseState(playing: true, sound: "pink", volume: 40))
        #expect(try result.get()["volume"] == 40)
    }

    @Test(arguments: [
        (#"{"volume": 101}"#, CommandError.Code.invalidField, String?("volume")),
        (#"{"volume": "loud"}"#, .invalidField, "volume"),
        (#"{"sound": "chime"}"#, .unknownSound, "sound"),
        (#"{"playing": "yes"}"#, .invalidField, "playing"),
        (#"{"colour": "red"}"#, .invalidField, "colour"),
        (#"{"sleep_timer_minutes": -1}"#, .invalidField, "sleep_timer_minutes"),
        ("LOUDER", .invalidField, "playing"),
        ("[1]", .invalidJSON, nil),
    ])
    func badSetsChangeNothing(text: String, code: CommandError.Code, field: String?) throws {
        var feature = NoiseFeature(restoring: nil)
        let before = feature
        let result = try send(&feature, .set, text)
        guard case .failure(let error) = result else { Issue.record("accepted \(text)"); return }
        #expect(error.code == code)
        #expect(error.field == field)
        #expect(feature == before)
    }

    @Test func atomicSetRefusesAllWhenOneFieldIsBad() throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .set, #"{"playing": true, "volume": 101}"#)
        #expect(feature.state.playing == false)
    }

    @Test(arguments: [("pink", "pink"), ("PINK", "pink")])
    func soundSet(text: String, expected: String) throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .setSound, text)
        #expect(feature.state.sound == expected)
    }

    @Test(arguments: ["rain", "chime", "../x", ""])
    func soundSetRefusesWhatIsNotANoise(text: String) throws {
        var feature = NoiseFeature(restoring: nil)
        let result = try send(&feature, .setSound, text)
        guard case .failure(let error) = result else { Issue.record("accepted \(text)"); return }
        #expect(text.isEmpty ? error.code == .invalidField : error.code == .unknownSound)
        #expect(feature.state.sound == "brown")
    }

    @Test(arguments: [("0", 0), ("100", 100), (" 55 ", 55)])
    func volumeSet(text: String, expected: Int) throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .setVolume, text)
        #expect(feature.state.volume == expected)
    }

    @Test(arguments: [
        ("101", "volume must be a whole number from 0 to 100, got 101"),
        ("-1", "volume must be a whole number from 0 to 100, got -1"),
        ("4.5", "volume must be a whole number from 0 to 100, got \"4.5\""),
        ("loud", "volume must be a whole number from 0 to 100, got \"loud\""),
        ("", "volume is missing: send a whole number from 0 to 100"),
    ])
    func volumeSetRefusesBadValues(text: String, message: String) throws {
        var feature = NoiseFeature(restoring: nil)
        let result = try send(&feature, .setVolume, text)
        #expect(result == .failure(.invalidField("volume", message)))
        #expect(feature.state.volume == NoiseState.defaults.volume)
    }

    @Test func sleepTimerStopsAtItsInstantWithAFadeWindow() throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .set, "ON")
        try send(&feature, .setSleepTimer, "30")
        let stopsAt = t0.adding(seconds: 1800)
        #expect(feature.state.stopsAt == stopsAt)
        #expect(feature.nextDeadline(context: context(t0)) == stopsAt)
        #expect(try send(&feature, .setVolume, "40").get()["stops_at"] == "2025-11-21T07:35:00+01:00")
        let scene = feature.audioScene(context: context(t0))
        #expect(scene.noise?.fadeOut == AudioScene.FadeWindow(start: stopsAt.adding(seconds: -30), end: stopsAt))

        var outbox: [Publication] = []
        feature.advance(context: context(stopsAt.adding(milliseconds: -1)), outbox: &outbox)
        #expect(feature.state.playing)
        feature.advance(context: context(stopsAt), outbox: &outbox)
        #expect(feature.state == NoiseState(playing: false, sound: "brown", volume: 40))
        #expect(feature.nextDeadline(context: context(stopsAt)) == nil)
        #expect(feature.audioScene(context: context(stopsAt)) == .silence)
    }

    @Test func zeroClearsTheSleepTimerAndOffClearsItToo() throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .set, #"{"playing": true, "sleep_timer_minutes": 10}"#)
        #expect(feature.state.sleepTimerMinutes == 10)
        try send(&feature, .setSleepTimer, "0")
        #expect(feature.state.stopsAt == nil && feature.state.sleepTimerMinutes == nil)
        try send(&feature, .setSleepTimer, "5")
        try send(&feature, .set, "OFF")
        #expect(feature.state.stopsAt == nil)
    }

    @Test func previewPlaysThreeSecondsThenRestores() throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .set, "ON")
        let persistentBefore = feature.persistent
        try send(&feature, .preview, "chime")
        #expect(feature.persistent == persistentBefore, "a preview is not state to keep")
        let scene = feature.audioScene(context: context(t0.adding(seconds: 1)))
        #expect(scene.preview == AudioScene.Preview(sound: "chime", volume: 40, until: t0.adding(seconds: 3)))
        #expect(scene.noise?.sound == "brown")
        #expect(feature.nextDeadline(context: context(t0)) == t0.adding(seconds: 3))
        var outbox: [Publication] = []
        feature.advance(context: context(t0.adding(seconds: 3)), outbox: &outbox)
        #expect(feature.audioScene(context: context(t0.adding(seconds: 3))).preview == nil)
        #expect(try send(&feature, .preview, "thunder").map { _ in 0 } == .failure(
            CommandError(.unknownSound, field: "sound", "no such sound \"thunder\"; see ~/sounds")))
    }

    @Test func sameValueChangesNothing() throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .set, "ON")
        let before = feature
        try send(&feature, .set, "ON")
        try send(&feature, .setVolume, "40")
        try send(&feature, .setSound, "brown")
        #expect(feature == before)
    }

    @Test func survivesARestart() throws {
        var feature = NoiseFeature(restoring: nil)
        try send(&feature, .set, #"{"playing": true, "sound": "pink", "volume": 70, "sleep_timer_minutes": 45}"#)
        let document = try JSONParser().parse(feature.persistent!.serialized)
        let restored = NoiseFeature(restoring: document)
        #expect(restored.state == feature.state)
        #expect(document["version"] == 1)
    }

    @Test(arguments: [
        nil, JSONValue.string("x"), ["version": 2, "playing": true], ["version": 1, "volume": 500, "sound": "../etc"],
    ])
    func badStateFilesGiveDefaults(document: JSONValue?) {
        let state = NoiseFeature(restoring: document).state
        #expect(state.volume == 40 && state.sound == "brown" && state.playing == false)
    }

    @Test func retainsNoise() {
        // ~/sounds is the mixes feature's: it changes when the mixes do.
        let topics = NoiseFeature(restoring: nil).retained(context: context(t0)).map { "\($0.topic) \($0.retain) \($0.qos)" }
        #expect(topics == ["noise true 1"])
    }
}

@Suite struct SoundIDTests {
    @Test(arguments: [
        ("Heavy Rain (night).flac", "heavy_rain_night"), ("fan.wav", "fan"), ("ÜBER sound.mp3", "ber_sound"),
        ("a-b_c.ogg", "a-b_c"), ("...", nil), (".hidden", "hidden"), ("日本.wav", nil),
    ])
    func derivesIDsFromFileNames(name: String, expected: String?) {
        #expect(SoundID.derive(fromFileName: name) == expected)
    }

    @Test(arguments: [("brown", true), ("Brown", false), ("a/b", false), ("", false), ("x y", false)])
    func validates(id: String, valid: Bool) {
        #expect(SoundID.isValid(id) == valid)
    }

    @Test func parsesTheCatalogFile() throws {
        let document = try JSONParser().parse(#"{"version":1,"noise":[{"id":"brown","name":"Brown","category":"noise","source":"synth:brown"}],"#
            + #""alarm":[]}"#)
        let definitions = try SoundDefinition.parseCatalogFile(document)
        #expect(SoundCatalog(definitions: definitions).json == ["noise": [["id": "brown", "name": "Brown", "category": "noise"]], "alarm": []])
        let bad = try JSONParser().parse(#"{"version":1,"noise":[{"id":"../x","name":"X","category":"noise","source":"file"}],"alarm":[]}"#)
        #expect(throws: SoundDefinition.FileError.self) { try SoundDefinition.parseCatalogFile(bad) }
    }

    @Test func audioStatusPayload() {
        #expect(AudioStatus(device: "default", state: .unavailable, error: "busy").json == ["device": "default", "status": "unavailable",
            "error": "busy", "underruns": 0])
        #expect(AudioStatus(device: "default", state: .ok, underruns: 3).json["underruns"] == 3)
        #expect(AudioStatus(device: "default", state: .ok).publication.retain)
    }
}

/// Issue 31 (2): a saved noise whose file is no longer offered (removed, or refused by the format
/// check, while the node was down) starts on brown and says why, as a rescan would have.
@Suite struct NoiseRestoreTests {
    @Test func aSavedSoundNoLongerInTheCatalogRestartsOnBrown() {
        let settings = NodeSettings(nodeID: "t", locale: .en, zone: NoiseFeatureTests.berlin)
        let saved: JSONValue = ["version": 1, "playing": true, "sound": "night", "volume": 30]
        let catalog = NoiseFeatureTests.catalog
        let core = NodeCore(settings: settings, catalog: catalog, documents: ["noise.json": saved], now: Instant(seconds: 0))
        #expect(core.noise.state.sound == "brown")
        #expect(core.noise.state.playing)
        #expect(core.noise.state.volume == 30)
        #expect(core.noise.state.error?.contains("\"night\"") == true)
        let pink: JSONValue = ["version": 1, "playing": true, "sound": "pink"]
        let kept = NodeCore(settings: settings, catalog: catalog, documents: ["noise.json": pink], now: Instant(seconds: 0))
        #expect(kept.noise.state.sound == "pink" && kept.noise.state.error == nil)
        let silent = NodeCore(settings: settings, documents: ["noise.json": saved], now: Instant(seconds: 0))
        #expect(silent.noise.state.sound == "night", "no catalog at all (no sounds.json): nothing to compare with")
    }
}
