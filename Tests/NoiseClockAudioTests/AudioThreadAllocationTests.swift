import CAllocationCounter
import Logging
import NoiseClockCore
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import NoiseClockAudio

/// The audio thread never allocates (docs/sounds.md, "The audio thread"): the real engine
/// through real ALSA into the tests' capture PCM, with a real station (Icecast on loopback), goes
/// through every transition twice: noise start, a voice start and retire (a crossfade), an alarm
/// start and stop, a station as the noise going down and coming back, the noise stopped. The
/// first round warms up (lazy statics, caches); the second is counted by the test binary's own
/// malloc (CAllocationCounter) on the thread marked `AudioThreadMark`, and must count none.
extension AlsaEngineTests {
    /// What the engine reported, gathered from its streams.
    final class Reports: Sendable {
        let alarms = Mutex<[AlarmSoundReport]>([])
        let outages = Mutex<[StationOutage]>([])
    }

    @Test func theAudioThreadAllocatesNothingOverEveryTransition() async throws {
        let station = try IcecastServer()
        defer { station.stop() }
        try station.startSource()
        _ = Self.defineCapture(["nc_alloc"])
        let engine = AudioEngine(
            device: "nc_alloc", sampleRate: 48000, library: try TestSupport.library(), logger: Logger(label: "test"),
            idleCloseSeconds: 3600, ditherSeed: 7, allowsLocalAddresses: true
        )
        let reports = Reports()
        let alarmTask = Task { for await report in engine.alarmSounds { reports.alarms.withLock { $0.append(report) } } }
        let outageTask = Task { for await outage in engine.stationOutages { reports.outages.withLock { $0.append(outage) } } }
        engine.apply(AudioScene(noise: .init(sound: "white", volume: 30)))
        engine.start()
        #expect(Self.waitFor(5) { engine.status.state == .ok }, "\(engine.status)")

        try transitions(engine, station: station, reports: reports, round: 1)
        noiseclock_allocations_arm(UInt32(AudioThreadMark.key))
        try transitions(engine, station: station, reports: reports, round: 2)
        noiseclock_allocations_disarm()
        let allocations = noiseclock_allocations_count(), frees = noiseclock_allocations_frees()
        print("audio thread over the counted round: \(allocations) allocations, \(frees) frees")
        #expect(allocations == 0, "the audio thread allocated \(allocations) times; first at:\n\(Self.traces(allocations))")
        engine.stop()
        _ = await alarmTask.value
        _ = await outageTask.value
    }

    /// One round of every transition, each waited for by what the engine reports or by the time
    /// its ramp takes.
    private func transitions(_ engine: AudioEngine, station: IcecastServer, reports: Reports, round: Int) throws {
        // Noise start, then a voice start and retire: pink crossfades into brown (2 s ramps).
        engine.apply(AudioScene(noise: .init(sound: "pink", volume: 40)))
        Clocks.sleep(seconds: 1)
        engine.apply(AudioScene(noise: .init(sound: "brown", volume: 40)))
        Clocks.sleep(seconds: 2.5)
        // An alarm starts (confirmed audible) and stops.
        let ring = AudioScene.Alarm(sound: "beep", volume: 60, since: AudioEngine.realtimeClock(), rampSeconds: 0, id: "alloc-\(round)")
        engine.apply(AudioScene(noise: .init(sound: "brown", volume: 40), alarm: ring))
        #expect(Self.waitFor(5) { reports.alarms.withLock { $0.contains { $0.key == ring.key } } }, "round \(round): no alarm report")
        engine.apply(AudioScene(noise: .init(sound: "brown", volume: 40)))
        Clocks.sleep(seconds: 0.5)
        // A station as the noise (brown covering it while down): heard, off the air, back.
        var radio = AudioScene(noise: .init(sound: "radio:alloc", volume: 40))
        radio.noise?.stationFallback = "brown"
        radio.stations = ["radio:alloc": station.url("/jazz.mp3")]
        let seen = reports.outages.withLock { $0.count }
        engine.apply(radio)
        Clocks.sleep(seconds: 3)
        station.stopSource()
        #expect(Self.waitFor(40) { reports.outages.withLock { $0.dropFirst(seen).contains { $0.cause != nil } } }, "round \(round): not down")
        try station.startSource()
        #expect(Self.waitFor(40) { reports.outages.withLock { $0.dropFirst(seen).last?.cause == nil } }, "round \(round): not back")
        // The noise stops: the station's voice fades out and is let go of.
        engine.apply(.silence)
        Clocks.sleep(seconds: 3)
    }

    /// The recorded allocations' call stacks, as symbols.
    private static func traces(_ count: Int) -> String {
        (0..<min(count, 8)).map { index in
            var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 24)
            let depth = Int(noiseclock_allocations_trace(Int32(index), &frames, 24))
            return frames.prefix(depth).compactMap { frame -> String? in
                var name = [CChar](repeating: 0, count: 512)
                guard let frame, noiseclock_allocations_symbol(frame, &name, Int32(name.count)) != 0 else { return nil }
                return "  " + String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }.joined(separator: "\n")
        }.joined(separator: "\n  --\n")
    }
}
