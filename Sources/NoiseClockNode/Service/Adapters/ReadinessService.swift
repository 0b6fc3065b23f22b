import NoiseClockAudio
import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle

/// Carries out readiness checks (`checkReadiness` effects) off the loop: the audio engine opens
/// the device and reads its mixer on its own thread (the only part that needs it), the next
/// alarm's sound is checked on the sound-files thread (its file's header read with libsndfile:
/// disk I/O, kept off the audio thread and the cooperative pool), the clock's synchronisation is
/// read now, and the answer goes back to the loop as `.readiness`.
struct ReadinessService: Service {
    let audio: AudioEngine?
    let sounds: SoundFiles
    let clock: NodeClock
    let inbox: NodeInbox
    let probes: AsyncStream<ReadinessProbe>

    func run() async throws {
        for await probe in probes.cancelOnGracefulShutdown() {
            inbox.send(.readiness(await check(probe)))
        }
    }

    func check(_ probe: ReadinessProbe) async -> ReadinessReport {
        var report = await audio?.checkDevice()
            ?? ReadinessReport(deviceError: "no sound catalog (sounds.json not found or unusable)")
        if let sound = probe.sound, await sounds.canMake(sound) == false {
            report.soundError = "the sound \"\(sound)\" cannot be played (its file is gone, unreadable or undecodable)"
        }
        report.clockSynced = clock.synced()
        return report
    }
}
