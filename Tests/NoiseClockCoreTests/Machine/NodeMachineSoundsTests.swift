import Testing
@testable import NoiseClockCore

/// The sounds directory changing under a running node: `~/sounds` and the Home Assistant picker
/// follow; noise whose custom file went away switches to brown and says why.
@Suite struct NodeMachineSoundsTests {
    static let rainEntry = SoundCatalog.Entry(id: "rain_night", name: "rain night", category: "custom", file: .init(seconds: 3600.25, format: "FLAC"))

    static func catalog(adding entries: [SoundCatalog.Entry]) -> SoundCatalog {
        var catalog = MachineRig.catalog
        catalog.noise += entries
        catalog.alarm += entries
        return catalog
    }

    /// What the sounds adapter reports after a rescan: a library numbered `generation`.
    static func rescan(_ catalog: SoundCatalog, generation: UInt64 = 1) -> NodeInput {
        .soundsChanged(SoundLibrarySummary(generation: generation, catalog: catalog))
    }

    @Test func anAddedFileIsPublishedWithItsLengthAndFormatThenWithdrawn() throws {
        var rig = MachineRig()
        rig.step(.connected)
        let added = rig.step(Self.rescan(Self.catalog(adding: [Self.rainEntry])))
        let sounds = try #require(added.json("noiseclock/bed/sounds"))
        let entry = try #require(sounds["noise"]?.arrayValue?.last)
        #expect(entry["id"] == "rain_night" && entry["seconds"] == 3600.25 && entry["format"] == "FLAC")
        #expect(sounds["alarm"]?.arrayValue?.contains { $0["id"] == "rain_night" } == true)
        // Home Assistant's noise picker offers it.
        #expect(added.topics.contains { $0.hasPrefix("homeassistant/") && $0.contains("noise_sound") })
        #expect(rig.command("noise/sound/set", "rain_night").json("noiseclock/bed/response")?["ok"] == true)

        let removed = rig.step(Self.rescan(MachineRig.catalog, generation: 2))
        #expect(removed.json("noiseclock/bed/sounds")?["noise"]?.arrayValue?.contains { $0["id"] == "rain_night" } == false)
        #expect(rig.command("noise/sound/set", "rain_night").json("noiseclock/bed/response")?["ok"] == false)
    }

    @Test func noiseWhoseFileVanishesPlaysBrownAndSaysSo() throws {
        var rig = MachineRig()
        rig.step(.connected)
        rig.step(Self.rescan(Self.catalog(adding: [Self.rainEntry])))
        #expect(rig.command("noise/set", #"{"playing": true, "sound": "rain_night"}"#).json("noiseclock/bed/response")?["ok"] == true)
        let gone = rig.step(Self.rescan(MachineRig.catalog, generation: 2))
        let noise = try #require(gone.json("noiseclock/bed/noise"))
        #expect(noise["playing"] == true && noise["sound"] == "brown")
        #expect(noise["error"]?.stringValue?.contains("rain_night") == true, "\(noise)")
        #expect(gone.scenes.last?.noise?.sound == "brown")
        #expect(gone.logs.contains { $0.message == "noise sound gone; playing brown instead" })
        // The next noise command is the user's choice again: the error goes.
        #expect(rig.command("noise/volume/set", "30").json("noiseclock/bed/noise")?["error"] == .null)
    }

    @Test func anUnchangedCatalogPublishesNothing() {
        var rig = MachineRig()
        rig.step(.connected)
        // The new library is still taken over (a file renamed on disk keeps its catalog entry).
        #expect(rig.step(Self.rescan(MachineRig.catalog, generation: 7)) == [.useSounds(generation: 7)])
        #expect(rig.written.isEmpty)
    }

    /// The adapter swaps its library only when the machine says so, and before the plan's scene:
    /// noise on a file that went away falls back in the same plan that hands over the library.
    @Test func theLibraryIsTakenOverBeforeTheSceneThatNeedsIt() throws {
        var rig = MachineRig()
        rig.step(.connected)
        let added = rig.step(Self.rescan(Self.catalog(adding: [Self.rainEntry])))
        #expect(added.first == .useSounds(generation: 1))
        let playing = rig.command("noise/set", #"{"playing": true, "sound": "rain_night"}"#)
        #expect(!playing.contains { if case .useSounds = $0 { true } else { false } })
        let gone = rig.step(Self.rescan(MachineRig.catalog, generation: 2))
        let swap = try #require(gone.firstIndex(of: .useSounds(generation: 2)))
        let play = try #require(gone.firstIndex { if case .play = $0 { true } else { false } })
        #expect(swap < play)
    }
}
