import NoiseClockThreads
import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import NoiseClockWeb

/// Carries out the machine's effects through the adapters, exactly as given and in order: the
/// only way anything leaves the loop (MQTT publications, the web app's observations, snapshots
/// and command replies, audio scenes, the timer's arming, log lines).
struct EffectPerformer: Sendable {
    let mqtt: MQTTClient
    let timer: WakeTimer
    let audio: AudioEngine?
    let web: WebServer?
    /// Readiness probes for the `ReadinessService` (none: checks are not carried out).
    var readiness: AsyncStream<ReadinessProbe>.Continuation? = nil
    /// The local buttons' readers (learn mode, re-binding); nil: none are read (tests).
    var buttons: ButtonService? = nil
    /// The speech thread; nil with `speech.enabled: false`.
    var speech: SpeechService? = nil
    /// The sound libraries (`useSounds`); nil: the library never changes (tests).
    var sounds: SoundFiles? = nil
    /// `station/test`'s probes (radio); nil: none are carried out.
    var stations: StationProber? = nil
    /// The station directory (`stream.directory_url`), told of a station added from it; nil: off.
    var directory: RadioDirectory? = nil
    /// The threads that tell the directory (joined by `JobThreadsService` at shutdown).
    var directoryTells: JobThreads? = nil
    /// Told when a restore was answered ok, so the settings it brought apply (nil: they wait for the restart).
    var restored: (@Sendable () -> Void)? = nil
    /// `settings.json`'s one writer (`editSettings`); nil: the web app offers no settings.
    var settings: SettingsAPI? = nil
    /// The engine's device as the settings give it (`useSoundDevice`); nil: it never moves.
    var audioDesk: AudioDesk? = nil
    /// The sounds folder watched (`watchSoundsFolder`); nil: it never moves.
    var soundsFolder: SoundsFolder? = nil
    /// `safe_mode/exit`: the crash count cleared, then a clean stop to start again (nil: not carried out).
    var exitSafeMode: (@Sendable () -> Void)? = nil
    /// `POST /api/restart`: a clean stop to start again (nil: not carried out).
    var restart: (@Sendable () -> Void)? = nil
    let logger: Logger

    func perform(_ effects: [NodeEffect]) {
        // One input's publications (events, new state, response) leave MQTT together; what
        // follows them (scene, arming, log lines) does not hold them up.
        guard let last = effects.lastIndex(where: \.isPublication) else {
            carryOut(effects[...])
            return
        }
        mqtt.publishTogether { carryOut(effects[...last]) }
        carryOut(effects[(last + 1)...])
    }

    private func carryOut(_ effects: ArraySlice<NodeEffect>) {
        for effect in effects {
            switch effect {
            case .publish(let message):
                mqtt.publish(topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain,
                             correlationData: message.correlationData)
            case .reply(let id, let response):
                // A restore's settings apply before its answer: the page that reads them next finds them in force.
                if response.ok, CommandName(rawValue: response.command) == .web(.restore) { restored?() }
                web?.reply(id, response)
            case .play(let scene):
                audio?.apply(scene)
            case .arm(let instant):
                timer.arm(at: instant)
            case .observe(let observation):
                web?.observe(observation)
            case .checkReadiness(let probe):
                readiness?.yield(probe)
            case .snapshot(let id, let entries):
                web?.snapshot(id, entries)
            case .learnButtons(let seconds, let device):
                buttons?.learn(seconds: seconds, device: device)
            case .subscribe(let group, let topics):
                mqtt.subscribe(group: group.rawValue, topics: topics)
            case .readButtons(let board):
                buttons?.use(board)
            case .speak(let request):
                speech?.speak(request)
            case .useSounds(let generation):
                if let library = sounds?.use(generation) { audio?.replaceLibrary(library) }
            case .probeStation(let request):
                stations?.probe(request)
            case .tellDirectory(let directoryID):
                if let directoryTells { directory?.tellChosen(directoryID, on: directoryTells) }
            case .exitSafeMode:
                exitSafeMode?()
            case .restart:
                restart?()
            case .editSettings(let edit):
                if let reply = settings?.carryOut(edit) { web?.answer(reply.id, reply.answer) }
            case .useSoundDevice(let device):
                audioDesk?.use(device)
            case .watchSoundsFolder(let directory):
                soundsFolder?.move(to: directory)
            case .log(let record):
                logger.log(level: record.level.swiftLog, "\(record.message)", metadata: record.metadata.mapValues { .string($0) })
            }
        }
    }
}

extension NodeEffect {
    var isPublication: Bool {
        if case .publish = self { true } else { false }
    }

    var isArming: Bool {
        if case .arm = self { true } else { false }
    }
}

extension LogRecord.Level {
    var swiftLog: Logger.Level {
        switch self {
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        }
    }
}
