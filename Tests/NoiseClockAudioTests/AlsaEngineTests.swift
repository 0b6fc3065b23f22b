import Logging
import NoiseClockCore
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// The engine through real ALSA into a `file` PCM defined by the test's own configuration
/// (ALSA_CONFIG_PATH = the system alsa.conf plus our file). Serialized: one ALSA
/// configuration per process, rewritten by the tests.
@Suite(.serialized) struct AlsaEngineTests {
    /// Set once per process: setenv while other threads may call getenv is not safe to repeat.
    static let configDirectory: String = {
        let directory = TestSupport.makeTemporaryDirectory()
        TestSupport.write("", to: directory + "/asoundrc")
        setenv("ALSA_CONFIG_PATH", "/usr/share/alsa/alsa.conf:" + directory + "/asoundrc", 1)
        return directory
    }()

    /// Defines `pcm.<name>` writing raw S16LE frames to `<config dir>/<name>.raw`.
    static func defineCapture(_ names: [String]) -> String {
        let directory = configDirectory
        let text = names.map { name in
            "pcm.\(name) {\n type file\n slave.pcm null\n file \"\(directory)/\(name).raw\"\n format raw\n}\n"
        }.joined()
        // A new inode: ALSA notices a changed file by inode and mtime (whole seconds), so an
        // in-place rewrite within the same second would go unseen.
        TestSupport.write(text, to: directory + "/asoundrc.new")
        rename(directory + "/asoundrc.new", directory + "/asoundrc")
        return directory
    }

    static func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Clocks.monotonicSeconds() + seconds
        while Clocks.monotonicSeconds() < end {
            if condition() { return true }
            Clocks.sleep(seconds: 0.02)
        }
        return condition()
    }

    @Test func playsTheChosenColourAtTheChosenLevelAndFadesOutOnStop() throws {
        let directory = Self.defineCapture(["nc_colour"])
        let engine = AudioEngine(device: "nc_colour", sampleRate: 48000, library: try TestSupport.library(), logger: Logger(label: "test"))
        engine.apply(AudioScene(noise: .init(sound: "pink", volume: 50)))
        engine.start()
        #expect(Self.waitFor(2) { engine.status.state == .ok }, "\(engine.status)")
        Clocks.sleep(seconds: 3)
        engine.stop()
        let (left, right) = TestSupport.readS16Stereo(directory + "/nc_colour.raw")
        #expect(left.count > 48000 * 3)
        // Steady part: from 1 s (the fade-in takes 0.5 s) to 2.5 s.
        let steady = Array(left[48000..<120_000])
        let expected = TestSupport.pinkRMS * Double(AudioScene.gain(volume: 50))
        #expect(abs(decibels(rms(steady) / expected)) < 1, "level \(rms(steady)) vs \(expected)")
        let slope = Spectrum.slope(Spectrum.welch(steady), sampleRate: 48000, from: 100, to: 10_000).slope
        #expect(abs(slope + 3) <= 1, "pink slope \(slope)")
        #expect(abs(correlation(steady, Array(right[48000..<120_000]))) < 0.1)
        // Stop fades out: the last 20 ms are silent, and the level falls across the last 0.4 s.
        let envelope = TestSupport.envelope(Array(left.suffix(24000)), window: 4800)
        #expect(rms(Array(left.suffix(960))) < 0.001)
        #expect(envelope.first! > 2 * envelope.last!)
    }

    @Test func closesTheDeviceWhenIdleAndReopensForSound() throws {
        let directory = Self.defineCapture(["nc_idle"])
        let file = directory + "/nc_idle.raw"
        let engine = AudioEngine(
            device: "nc_idle", sampleRate: 48000, library: try TestSupport.library(), logger: Logger(label: "test"),
            idleCloseSeconds: 0.5
        )
        engine.start()
        #expect(Self.waitFor(2) { engine.status.state == .ok }, "\(engine.status)")
        // Silent from the start: after the idle delay the device is closed (the file plugin lets go
        // of its file), so nothing can grow it.
        #expect(CaptureFile.waitForClose(file, timeout: 5), "the idle engine kept the device open")
        // Sound again: the device is reopened at once (the file plugin truncates it) and plays
        // 1.5 s of it, the fade-in and a steady part.
        engine.apply(AudioScene(noise: .init(sound: "white", volume: 60)))
        #expect(Self.waitFor(2) { CaptureFile.isOpen(file) }, "the device was not reopened for sound")
        #expect(Self.waitFor(4) { TestSupport.fileSize(file) > 48000 * 4 * 3 / 2 })
        engine.stop()
        let (left, _) = TestSupport.readS16Stereo(file)
        // 0.9 s to 0.5 s before the end: after the fade-in, before stop's fade-out.
        let steady = Array(left[(left.count - 43200)..<(left.count - 24000)])
        let expected = TestSupport.whiteRMS * Double(AudioScene.gain(volume: 60))
        #expect(abs(decibels(rms(steady) / expected)) < 1.5, "level \(rms(steady)) vs \(expected)")
        #expect(engine.status.state == .ok)
    }

    @Test func writesAtRealTimeSpeed() throws {
        let directory = Self.defineCapture(["nc_speed"])
        let engine = AudioEngine(device: "nc_speed", sampleRate: 48000, library: try TestSupport.library(), logger: Logger(label: "test"))
        engine.apply(AudioScene(noise: .init(sound: "brown", volume: 40)))
        engine.start()
        let path = directory + "/nc_speed.raw"
        #expect(Self.waitFor(2) { TestSupport.fileSize(path) > 0 })
        Clocks.sleep(seconds: 0.5)
        let t1 = Clocks.monotonicSeconds(), size1 = TestSupport.fileSize(path)
        Clocks.sleep(seconds: 4)
        let t2 = Clocks.monotonicSeconds(), size2 = TestSupport.fileSize(path)
        engine.stop()
        let speed = Double(size2 - size1) / 192_000 / (t2 - t1)
        #expect(abs(speed - 1) <= 0.05, "wrote \(speed)× real time")
    }

    @Test func missingDeviceIsUnavailableThenRecovers() async throws {
        let directory = Self.defineCapture([])
        let engine = AudioEngine(
            device: "nc_later", sampleRate: 48000, library: try TestSupport.library(), logger: Logger(label: "test"), retryInterval: 0.3
        )
        engine.apply(AudioScene(noise: .init(sound: "white", volume: 40)))
        engine.start()
        #expect(Self.waitFor(2) { engine.status.state == .unavailable && engine.status.error != "not started" })
        #expect(engine.status.error?.contains("nc_later") == true)
        _ = Self.defineCapture(["nc_later"])
        #expect(Self.waitFor(3) { engine.status.state == .ok }, "\(engine.status)")
        #expect(Self.waitFor(2) { TestSupport.fileSize(directory + "/nc_later.raw") > 48000 * 4 / 2 })
        engine.stop()
        var seen: [AudioStatus.State] = []
        for await status in engine.statuses { seen.append(status.state) }
        #expect(seen == [.unavailable, .ok])
    }
}
