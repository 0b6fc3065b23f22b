import NoiseClockAudio
import NoiseClockCore
import NoiseClockPlatform
import ServiceLifecycle

/// Carries out readiness checks (`checkReadiness` effects) off the loop: the audio engine looks
/// at the device, its mixer and the sound on its own thread, the clock's synchronisation is read
/// now, and the answer goes back to the loop as `.readiness`.
struct ReadinessService: Service {
    let audio: AudioEngine?
    let clock: NodeClock
    let inbox: NodeInbox
    let probes: AsyncStream<ReadinessProbe>

    func run() async throws {
        for await probe in probes.cancelOnGracefulShutdown() {
            var report = await audio?.check(sound: probe.sound)
                ?? ReadinessReport(deviceError: "no sound catalog (sounds.json not found or unusable)")
            report.clockSynced = clock.synced()
            inbox.send(.readiness(report))
        }
    }
}
