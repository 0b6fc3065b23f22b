import Logging
import NoiseClockCore
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// `audio.device` changed in the web app (issue 30): the engine moves to the new device while it
/// plays, and the settings page's device list and test chime. In AlsaEngineTests' suite: one ALSA
/// configuration per process, rewritten by each test.
extension AlsaEngineTests {
    @Test func aDeviceChangeMovesWhatPlaysToTheNewDeviceWithinTwoSeconds() throws {
        let directory = Self.defineCapture(["nc_before", "nc_after"])
        let before = directory + "/nc_before.raw", after = directory + "/nc_after.raw"
        let engine = AudioEngine(device: "nc_before", sampleRate: 48000, library: try TestSupport.library(), logger: Logger(label: "test"))
        engine.apply(AudioScene(noise: .init(sound: "white", volume: 60)))
        engine.start()
        defer { engine.stop() }
        #expect(Self.waitFor(2) { engine.status.state == .ok && TestSupport.fileSize(before) > 48000 * 4 }, "\(engine.status)")
        let started = Clocks.monotonicSeconds()
        engine.changeDevice("nc_after")
        // Half a second of the noise on the new device, at its level: it went on, no restart.
        #expect(Self.waitFor(2) { TestSupport.fileSize(after) >= 24000 * 4 }, "nothing on nc_after")
        let took = Clocks.monotonicSeconds() - started
        #expect(took < 2, "took \(took) s")
        #expect(engine.status == AudioStatus(device: "nc_after", state: .ok))
        #expect(engine.device == "nc_after")
        #expect(CaptureFile.waitForClose(before, timeout: 2), "the old device is still open")
        let left = TestSupport.readS16Stereo(after).left
        let steady = Array(left[left.count - 9600..<left.count])
        let expected = TestSupport.whiteRMS * Double(AudioScene.gain(volume: 60))
        #expect(abs(decibels(rms(steady) / expected)) < 1.5, "level \(rms(steady)) vs \(expected)")
        // A device that does not open: unavailable, naming it; the engine keeps trying it.
        engine.changeDevice("nc_nowhere")
        #expect(Self.waitFor(2) { engine.status.state == .unavailable && engine.status.device == "nc_nowhere" }, "\(engine.status)")
        #expect(engine.status.error?.contains("nc_nowhere") == true, "\(engine.status)")
    }

    @Test func aTestChimeThroughTheEngineIsAnsweredOnceWrittenAndRefusedWhenTheDeviceDoesNotOpen() throws {
        let directory = Self.defineCapture(["nc_chime_engine"])
        let engine = AudioEngine(device: "nc_chime_engine", sampleRate: 48000, library: try TestSupport.library(), logger: Logger(label: "test"))
        engine.start()
        defer { engine.stop() }
        let outcome = Mutex<Result<Int32?, ChimeFailure>?>(nil)
        engine.playChime(AudioChime.samples(sampleRate: 48000), volume: AudioChime.volume) { result in outcome.withLock { $0 = result } }
        #expect(Self.waitFor(2) { outcome.withLock { $0 } != nil })
        guard case .success(let card)? = outcome.withLock({ $0 }) else { Issue.record("\(String(describing: outcome.withLock { $0 }))"); return }
        #expect(card == nil)  // a file PCM is on no card
        #expect(Self.waitFor(3) { TestSupport.fileSize(directory + "/nc_chime_engine.raw") >= 48000 * 4 })
        let left = TestSupport.readS16Stereo(directory + "/nc_chime_engine.raw").left
        #expect(left.map { abs($0) }.max()! > 0.03, "the chime is not in the capture")
        engine.changeDevice("nc_chime_nowhere")
        let refused = Mutex<Result<Int32?, ChimeFailure>?>(nil)
        engine.playChime(AudioChime.samples(sampleRate: 48000), volume: AudioChime.volume) { result in refused.withLock { $0 = result } }
        #expect(Self.waitFor(2) { refused.withLock { $0 } != nil })
        guard case .failure(let failure)? = refused.withLock({ $0 }) else { Issue.record("played on a missing device"); return }
        #expect(failure.description.contains("nc_chime_nowhere"))
    }

    @Test func theDeviceListHasTheConfigurationsPlaybackPCMsWithTheirDescriptions() {
        let directory = Self.configDirectory
        let text = "pcm.nc_listed {\n type file\n slave.pcm null\n file \"\(directory)/nc_listed.raw\"\n format raw\n"
            + " hint { show on description \"Bedside speaker\" }\n}\n"
        TestSupport.write(text, to: directory + "/asoundrc.new")
        rename(directory + "/asoundrc.new", directory + "/asoundrc")
        let devices = AudioDeviceList.playback()
        #expect(devices.contains(AudioDeviceList.Device(name: "nc_listed", description: "Bedside speaker")), "\(devices)")
        #expect(devices.contains { $0.name == "null" })
    }

    @Test func theChimeOnADeviceOfItsOwnPlaysBothNotesAtVolume30() throws {
        let directory = Self.defineCapture(["nc_chime_own"])
        let played = try AudioChime.play(device: "nc_chime_own", sampleRate: 48000)
        #expect(played.frames == 48000)
        #expect(played.mixer == nil)
        let left = TestSupport.readS16Stereo(directory + "/nc_chime_own.raw").left
        #expect(left.count == 48000)
        // Struck at half scale, times volume 30's gain.
        let peak = Double(left.map { abs($0) }.max()!)
        #expect(abs(peak - 0.5 * Double(AudioScene.gain(volume: 30))) < 0.005, "peak \(peak)")
        #expect(throws: ChimeFailure.self) { try AudioChime.play(device: "nc_chime_missing", sampleRate: 48000) }
    }
}
