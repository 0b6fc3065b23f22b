/// What the node does in answer to an input, as plain values, in the order it must be done.
/// The service only carries these out; it decides nothing.
public enum NodeEffect: Sendable, Equatable {
    /// Publish on MQTT (the topic is absolute).
    case publish(OutboundMessage)
    /// Answer a `LocalRequest`.
    case reply(requestID: UInt64, Response)
    /// Make this scene audible (only sent when it differs from the last one).
    case play(AudioScene)
    /// Arm the wake timer for this instant (replacing the previous arming).
    case arm(Instant)
    case log(LogRecord)
    /// Tell the web app's event streams (only when the machine is `observed`): every publication
    /// under the node's root, and retained state that changed while MQTT is down.
    case observe(Observation)
    /// Look at what the next alarm needs (the sound device, its mixer, the sound, the clock) and
    /// answer with `NodeInput.readiness`.
    case checkReadiness(ReadinessProbe)
    /// Answer a `NodeInput.snapshot`: the whole state now, one entry per retained topic plus `time`.
    case snapshot(requestID: UInt64, [Observation])
    /// Report every key of every local input device for this many seconds (`~/buttons/learn`);
    /// with a `device`, of that one too, bound or not (the settings page learns a new button's key).
    case learnButtons(seconds: Double, device: String?)
    /// Subscribe to exactly these topics for the group from now on (and after every reconnect),
    /// the group's others dropped: a device or an MQTT button re-bound (`NodeInput.rebind`).
    case subscribe(SubscriptionGroup, [String])
    /// Read the local buttons of this board from now on: the readers restarted with its devices,
    /// keys and timing (`NodeInput.rebind`).
    case readButtons(ButtonBoard)
    /// Speak this (ducking what plays); the adapter answers with `NodeInput.spoken`.
    case speak(SpeechRequest)
    /// Probe a station (`station/test`); the adapter answers with `NodeInput.stationProbed`.
    case probeStation(StationProbeRequest)
    /// v1.4: a station was added with this `directory_id`: tell the directory of the choice as it
    /// asks its clients to (Radio Browser: `GET /json/url/<id>`), once, off the loop, unanswered.
    case tellDirectory(String)
    /// Play from the sound library of this generation (`NodeInput.soundsChanged`) from now on:
    /// the audio engine's new voices and the readiness check take it; playing voices go on.
    /// Comes before the plan's scene, which may already need it.
    case useSounds(generation: UInt64)
    /// `~/safe_mode/exit` (v1.4): clear the crash count, then stop cleanly and start again.
    /// Comes after the command's answer.
    case exitSafeMode
    /// `POST /api/restart` (http-api v1.4): stop cleanly and start again. Comes after the answer.
    case restart
    /// Write `settings.json` as `NodeInput.settings` asks (and answer its web request): the one
    /// writer of the file, on the loop's thread.
    case editSettings(SettingsEdit)
    /// Play on this sound device from now on: the audio thread closes the old one and opens this
    /// one, whatever plays goes on there (the same device again changes nothing).
    case useSoundDevice(String)
    /// Read and watch this sounds folder instead of the old one (nil: none; the same one again
    /// changes nothing); the new library comes back as `NodeInput.soundsChanged`.
    case watchSoundsFolder(String?)
}

/// A publication as the web app sees it: the topic relative to the node's root (`alarms`,
/// `alarm/event`) and the payload's bytes.
public struct Observation: Sendable, Equatable {
    public var suffix: String
    public var payload: [UInt8]

    public init(suffix: String, payload: [UInt8]) {
        self.suffix = suffix
        self.payload = payload
    }
}

public struct OutboundMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: Int32
    public var retain: Bool
    /// MQTT v5 correlation data, echoed on a response topic.
    public var correlationData: [UInt8]?

    public init(topic: String, payload: [UInt8], qos: Int32, retain: Bool, correlationData: [UInt8]? = nil) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.correlationData = correlationData
    }

    public var text: String { String(decoding: payload, as: UTF8.self) }
}

/// A log line the node wants written; the service maps it onto swift-log.
public struct LogRecord: Sendable, Equatable {
    public enum Level: String, Sendable { case debug, info, notice, warning, error }

    public var level: Level
    public var message: String
    public var metadata: [String: String]

    public init(_ level: Level, _ message: String, _ metadata: [String: String] = [:]) {
        self.level = level
        self.message = message
        self.metadata = metadata
    }
}

/// One state file to write atomically before the plan's effects may happen.
public struct StateWrite: Sendable, Equatable {
    public var file: String
    public var document: JSONValue
    /// `document` serialized: what was compared with the last write.
    public var text: String
}

/// A state write that did not happen: how many of the plan's writes did, and why the next failed.
public struct WriteFailure: Error, Sendable, Equatable {
    public var written: Int
    public var message: String

    public init(written: Int, message: String) {
        self.written = written
        self.message = message
    }
}
