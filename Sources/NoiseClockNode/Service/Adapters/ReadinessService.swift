import NoiseClockAudio
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockThreads
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
    /// `stream.user_agent` and `stream.ca_file`, for the station's probe.
    var stream = StreamSettings()

    func run() async throws {
        for await probe in probes.cancelOnGracefulShutdown() {
            inbox.send(.readiness(await check(probe)))
        }
    }

    func check(_ probe: ReadinessProbe) async -> ReadinessReport {
        var report = await audio?.checkDevice()
            ?? ReadinessReport(deviceError: "no sound catalog (sounds.json not found or unusable)")
        // A station is not a sound the library makes: it is probed over the network instead.
        if let sound = probe.sound, Station.stationID(ofSound: sound) == nil, await sounds.canMake(sound) == false {
            report.soundError = "the sound \"\(sound)\" cannot be played (its file is gone, unreadable or undecodable)"
        }
        if let url = probe.stationURL {
            report.streamCause = await Self.probeStation(
                url, userAgent: stream.userAgent, caFile: stream.caFile, allowsLocalAddresses: stream.allowsLocalAddresses)
            if report.streamCause != nil, let heal = await healed(probe, failedURL: url) {
                report.healed = heal
                report.streamCause = nil
            }
        }
        report.clockSynced = clock.synced()
        return report
    }

    /// v1.4: a failed station with a `directory_id` looked up again in the directory; its new
    /// address, when it differs and plays (the same probe), is the heal. Nil otherwise.
    func healed(_ probe: ReadinessProbe, failedURL: String) async -> StationHeal? {
        guard let stationID = probe.stationID, let directoryID = probe.directoryID, let directory = stream.directory else { return nil }
        // On a thread of its own (the request blocks, bounded at 4.5 s), joined once it answered.
        let thread = DedicatedThread(name: "directory-lookup")
        defer { thread.join() }
        let listed = await withCheckedContinuation { (continuation: CheckedContinuation<DirectoryStation?, Never>) in
            guard (try? thread.start { continuation.resume(returning: try? directory.station(directoryID: directoryID).get()) }) == true else {
                continuation.resume(returning: nil)
                return
            }
        }
        guard let moved = listed?.url, moved != failedURL else { return nil }
        let cause = await Self.probeStation(
            moved, userAgent: stream.userAgent, caFile: stream.caFile, allowsLocalAddresses: stream.allowsLocalAddresses)
        return cause == nil ? StationHeal(stationID: stationID, from: failedURL, to: moved) : nil
    }

    /// The station's probe on a thread of its own (it blocks up to 8 s); nil when it was heard.
    /// The thread is joined here once it answered (it returns right after).
    static func probeStation(
        _ url: String, userAgent: String = StreamSettings.defaultUserAgent, caFile: String? = nil, allowsLocalAddresses: Bool = false
    ) async -> String? {
        let thread = DedicatedThread(name: "readiness-probe")
        defer { thread.join() }
        return await withCheckedContinuation { continuation in
            do {
                try thread.start {
                    switch StationProbe(url: url, userAgent: userAgent, caFile: caFile, allowsLocalAddresses: allowsLocalAddresses).run() {
                    case .success: continuation.resume(returning: nil)
                    case .failure(let failure): continuation.resume(returning: failure.cause)
                    }
                }
            } catch {
                continuation.resume(returning: "no_audio")
            }
        }
    }
}
