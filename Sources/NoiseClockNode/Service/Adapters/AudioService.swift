import NoiseClockAudio
import NoiseClockCore
import ServiceLifecycle

/// The audio engine as a service: its thread plays the scenes the loop hands it (`play`
/// effects) and reports the device's status. Stopped last, after the loop has finished.
struct AudioService: Service {
    let engine: AudioEngine
    let inbox: NodeInbox

    func run() async throws {
        engine.start()
        await withDiscardingTaskGroup { group in
            // The failsafe's confirmations travel beside the status; both streams end with `stop()`.
            group.addTask { [engine, inbox] in
                for await report in engine.alarmSounds { inbox.send(.alarmSound(report)) }
            }
            group.addTask { [engine, inbox] in
                for await title in engine.stationTitles { inbox.send(.stationTitle(title)) }
            }
            group.addTask { [engine, inbox] in
                for await outage in engine.stationOutages { inbox.send(.stationOutage(outage)) }
            }
            for await status in engine.statuses.cancelOnGracefulShutdown() {
                inbox.send(.audio(status))
            }
            engine.stop()
        }
    }
}
