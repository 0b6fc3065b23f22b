import NoiseClockAudio
import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle

/// Carries out readiness checks (`checkReadiness` effects) off the loop: the audio engine opens
/// the device and reads its mixer on its own thread, the next alarm's sound is checked here (its
/// file's header read: disk I/O, kept off the audio thread), the clock's synchronisation is read
/// now, and the answer goes back to the loop as `.readiness`.
struct ReadinessService: Service {
    let audio: AudioEngine?
    let sounds: CurrentSoundLibrary
    let clock: NodeClock
    let inbox: NodeInbox
    let probes: AsyncStream<ReadinessProbe>

    func run() async throws {
        for await probe in probes.cancelOnGracefulShutdown() {
            var report = await audio?.checkDevice()
                ?? ReadinessReport(deviceError: "no sound catalog (sounds.json not found or unusable)")
            if let sound = probe.sound, let library = sounds.value, !library.canMake(sound) {
                report.soundError = "the sound \"\(sound)\" cannot be played (its file is gone, unreadable or undecodable)"
            }
            report.clockSynced = clock.synced()
            inbox.send(.readiness(report))
        }
    }
}
