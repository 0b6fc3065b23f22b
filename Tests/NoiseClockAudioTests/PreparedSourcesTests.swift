import NoiseClockCore
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// Recordings are opened off the audio thread (`AudioEngine.apply` prepares them with the scene)
/// and the real-time mixer only takes what it is handed: it never opens a file itself.
@Suite struct PreparedSourcesTests {
    let t0 = Instant(seconds: 1_000_000)

    func alarm(_ sound: String, since: Instant) -> AudioScene {
        AudioScene(alarm: .init(sound: sound, volume: 100, since: since, rampSeconds: 0))
    }

    /// Without a prepared source the mixer rings the fallback although the file is fine: it did
    /// not open it. With one, opened before the file was deleted, it plays the recording: the
    /// mixer did not open the file again. (The test renders faster than real time, so it lets the
    /// reader buffer the half second first.)
    @Test func theRealTimeMixerPlaysOnlyRecordingsOpenedAhead() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        SoundFileTests.writeSine(directory + "/hum.wav", rate: 48000, seconds: 2, frequency: 220)
        let library = try SoundFileTests.library(directory)
        let scene = alarm("hum", since: t0)

        let unprepared = Mixer(library: library)
        _ = TestSupport.mix(unprepared, scene, from: t0, seconds: 0.1)
        #expect(unprepared.alarmPlayback?.fallback == true)

        let mixer = Mixer(library: library)
        let source = try #require(library.makeStream("hum"))
        source.waitUntilBuffered(48000 / 2)
        var prepared = PreparedSources()
        prepared.append(source, for: "hum")
        mixer.offer(prepared, for: scene)
        unlink(directory + "/hum.wav")
        let played = TestSupport.mix(mixer, scene, from: t0, seconds: 0.5)
        #expect(mixer.alarmPlayback?.fallback == false)
        #expect(mixer.alarmPlayback?.audible == true)
        // The hum, not the fallback beep: 220 Hz, 44 rising zero crossings in the last 0.2 s.
        let last = Array(played.suffix(9600))
        let crossings = zip(last.dropFirst(), last).filter { $0 > 0 && $1 <= 0 }.count
        #expect(abs(crossings - 44) <= 1, "\(crossings) rising zero crossings")
    }

    /// Only a voice that is new since the scene before gets its recording opened: a volume change
    /// opens nothing, a new ring does; a file that no longer opens drops the older sources of it,
    /// so a ring never plays a recording that was replaced by garbage meanwhile.
    @Test func onlyNewVoicesAreOpenedAndABrokenFileDropsItsOlderSources() throws {
        let directory = TestSupport.makeTemporaryDirectory()
        SoundFileTests.writeSine(directory + "/hum.wav", rate: 48000, seconds: 2, frequency: 220)
        let library = try SoundFileTests.library(directory)
        let noise = AudioScene(noise: .init(sound: "hum", volume: 40))
        let louder = AudioScene(noise: .init(sound: "hum", volume: 80))
        var ringing = louder
        ringing.alarm = alarm("hum", since: t0).alarm

        var pool = PreparedSources()
        pool.add(SceneVoices(noise).prepare(after: SceneVoices(.silence), library: library))
        pool.add(SceneVoices(louder).prepare(after: SceneVoices(noise), library: library))
        pool.trim(to: SceneVoices(louder).recordingCounts(library))
        #expect(pool.take("hum") != nil)
        #expect(pool.take("hum") == nil, "a volume change opened the file again")

        pool.add(SceneVoices(ringing).prepare(after: SceneVoices(louder), library: library))
        pool.trim(to: SceneVoices(ringing).recordingCounts(library))
        #expect(pool.take("hum") != nil, "a new ring did not open its recording")

        pool.add(SceneVoices(louder).prepare(after: SceneVoices(.silence), library: library))
        // Replaced by a rename: the sources opened before still read the old file.
        TestSupport.write("RIFF nonsense", to: directory + "/new.wav")
        rename(directory + "/new.wav", directory + "/hum.wav")
        var next = ringing
        next.alarm = alarm("hum", since: t0.adding(seconds: 60)).alarm
        pool.add(SceneVoices(next).prepare(after: SceneVoices(ringing), library: library))
        pool.trim(to: SceneVoices(next).recordingCounts(library))
        #expect(pool.take("hum") == nil, "a source of the file before it broke was kept")
    }
}
