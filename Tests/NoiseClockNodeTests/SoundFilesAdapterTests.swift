import Foundation
import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import Testing
@testable import NoiseClockNode

/// The sound-files adapter speaks only through the machine: a rescan reports the new library as
/// an input and keeps it until the machine's `useSounds` effect; the readiness check reads sound
/// files on the sound-files thread and the audio thread never calls libsndfile. The real adapter,
/// machine, effect performer, audio engine (on ALSA's `null` PCM) and files; the test plays the loop.
@Suite struct SoundFilesAdapterTests {
    static var catalogFile: String {
        "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/") + "/Resources/sounds.json"
    }

    static var logger: Logger {
        var logger = Logger(label: "sound-files-test")
        logger.logLevel = .critical
        return logger
    }

    /// A sounds folder holding `files` (name → seconds of a 440 Hz WAV) and the library read from it.
    static func folder(_ files: [String: Int]) throws -> (URL, SoundLibrary) {
        let directory = try makeTemporaryDirectory(prefix: "sound-files")
        for (name, seconds) in files {
            try TimingSuite.Audio.AlarmFailsafeTests.wav(seconds: seconds).write(to: directory.appendingPathComponent(name))
        }
        let library = try SoundLibrary.load(catalogFile: catalogFile, soundsDirectory: directory.path, sampleRate: 48_000, logger: logger)
        return (directory, library)
    }

    /// The next input the adapter sent, or `.wake` (queued by the test after the adapter's work
    /// ended, so this never waits) if it sent none.
    static func nextInput(_ inbox: NodeInbox, after files: SoundFiles) async -> NodeInput? {
        // A job queued behind the rescan on the same thread: when it answers, the rescan is done.
        _ = await files.canMake("brown")
        inbox.send(.wake)
        guard case .input(let input) = inbox.next() else { return nil }
        return input
    }

    @Test func aFileAddedReachesSoundsThroughTheMachineBeforeTheLibraryIsSwapped() async throws {
        let (directory, library) = try Self.folder([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let inbox = NodeInbox()
        let files = SoundFiles(library: library, inbox: inbox, logger: Self.logger)
        try files.start()
        defer { files.stop() }

        try TimingSuite.Audio.AlarmFailsafeTests.wav(seconds: 2).write(to: directory.appendingPathComponent("Rain Night.wav"))
        files.folderChanged(settleSeconds: 0)
        let input = await Self.nextInput(inbox, after: files)
        guard case .soundsChanged(let summary) = input else {
            Issue.record("the rescan reported \(String(describing: input)), not soundsChanged")
            return
        }
        #expect(summary.catalog.noise.contains { $0.id == "rain_night" })
        // Reported, not swapped: the machine has not decided yet.
        #expect(files.inUse?.isRecording("rain_night") == false)

        // The loop's part: the machine publishes `~/sounds` and says to use the new library.
        let core = NodeCore(settings: NodeSettings(nodeID: "bed", locale: .en, zone: .utc), catalog: library.catalog, documents: [:],
                            now: WallClock.now())
        var machine = NodeMachine(core: core, topics: TopicScheme(base: "noiseclock", nodeID: "bed"),
                                  discovery: DiscoverySettings(enabled: false, prefix: "homeassistant", configurationURL: nil),
                                  persisted: core.persistentState(), seed: 1)
        _ = machine.finish(machine.plan(.connected, now: WallClock.now()), failure: nil)
        let effects = machine.finish(machine.plan(try #require(input), now: WallClock.now()), failure: nil)
        let sounds = try #require(effects.compactMap { effect -> OutboundMessage? in
            if case .publish(let message) = effect, message.topic == "noiseclock/bed/sounds" { message } else { nil }
        }.last)
        #expect(sounds.text.contains("\"rain_night\""), "\(sounds.text)")
        #expect(effects.contains(.useSounds(generation: summary.generation)))

        let mqtt = try MQTTClient(options: MQTTOptions(host: "127.0.0.1", port: 1, clientID: "sound-files-test"),
                                  subscriptions: [], logger: Self.logger) { _ in }
        EffectPerformer(mqtt: mqtt, timer: try WakeTimer { _ in }, audio: nil, web: nil, sounds: files, logger: Self.logger)
            .perform(effects)
        #expect(files.inUse?.isRecording("rain_night") == true)
    }

    @Test func aRescanThatFindsTheSameFilesReportsNothing() async throws {
        let (directory, library) = try Self.folder(["song.wav": 1])
        defer { try? FileManager.default.removeItem(at: directory) }
        let inbox = NodeInbox()
        let files = SoundFiles(library: library, inbox: inbox, logger: Self.logger)
        try files.start()
        defer { files.stop() }
        files.folderChanged(settleSeconds: 0)
        #expect(await Self.nextInput(inbox, after: files) == .wake)
    }

    /// The readiness check opens the next alarm's file on the sound-files thread; the audio thread
    /// only opens the device and reads its mixer, and never calls libsndfile (`SoundFileCalls`
    /// counts every call made there), even while it plays a recording and lets it go.
    @Test func theReadinessCheckReadsSoundFilesOffTheAudioThread() async throws {
        let (directory, library) = try Self.folder(["song.wav": 1, "broken.wav": 1])
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(repeating: 0x5A, count: 4096).write(to: directory.appendingPathComponent("broken.wav"))
        let inbox = NodeInbox()
        // A thread name of this test's own: other tests' sound-files threads run beside it.
        let thread = "sf-readiness"
        let files = SoundFiles(library: library, inbox: inbox, logger: Self.logger, threadName: thread)
        try files.start()
        defer { files.stop() }
        let engine = AudioEngine(device: "null", sampleRate: 48_000, library: library, logger: Self.logger, idleCloseSeconds: 60)
        engine.start()

        // A recording plays (its file opened by the caller, read by its reader thread, mixed by the audio thread).
        engine.apply(AudioScene(noise: .init(sound: "song", volume: 40)))
        let readiness = ReadinessService(audio: engine, sounds: files, clock: NodeClock(offsetFile: nil), inbox: inbox,
                                         probes: AsyncStream { $0.finish() })
        let fine = await readiness.check(ReadinessProbe(sound: "song"))
        #expect(fine.deviceError == nil && fine.soundError == nil, "\(fine)")
        let broken = await readiness.check(ReadinessProbe(sound: "broken"))
        #expect(broken.soundError?.contains("broken") == true, "\(broken)")
        // The voice let go on the audio thread (faded, then the mixer ends with the thread): its
        // reader closes the file on its own thread.
        engine.apply(.silence)
        _ = await readiness.check(ReadinessProbe(sound: nil))
        engine.stop()

        // The two probes of a recording (`song`, `broken`) opened their files there.
        #expect(SoundFileCalls.opensByThread[thread] == 2, "\(SoundFileCalls.opensByThread)")
        #expect(SoundFileCalls.opensByThread["audio"] == nil, "\(SoundFileCalls.opensByThread)")
        #expect(SoundFileCalls.onAudioThread == 0)
    }
}
