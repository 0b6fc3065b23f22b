/// Everything that can happen to the node, as plain values: what the adapters (MQTT, the wake
/// timer, the battery poll, the audio thread, a second command source such as HTTP) turn the
/// world into. `NodeMachine.plan` takes one at a time, with one `now`.
public enum NodeInput: Sendable, Equatable {
    /// The MQTT session is up and subscribed: announce, then (re)publish all retained state.
    case connected
    case disconnected
    /// An MQTT message on a subscribed topic: a command, Home Assistant's birth, or a config of ours.
    case message(InboundMessage)
    /// A command from a source other than MQTT; answered by `NodeEffect.reply`, not on `~/response`.
    case request(LocalRequest)
    /// The wake timer reached the deadline it was armed for.
    case wake
    /// The system clock was set (NTP step, manual change).
    case clockChanged
    case battery(BatteryReading)
    case audio(AudioStatus)
    /// The audio thread handed a ringing alarm's first audible samples to the device (or could not
    /// make its sound at all): the failsafe's confirmation.
    case alarmSound(AlarmSoundReport)
    /// Whether the kernel's clock is synchronised (`adjtimex`; nil where it cannot be told), read
    /// at start and whenever it may have changed.
    case clockSync(Bool?)
    /// The answer to `NodeEffect.checkReadiness`.
    case readiness(ReadinessReport)
    /// The web app asks for the whole state (its page load, an event stream's start); answered
    /// by `NodeEffect.snapshot` in the effects' order, so nothing published later is older.
    case snapshot(requestID: UInt64)
    /// A button's gesture, a learned key, or a button device's status.
    case button(ButtonInput)
    /// The speech adapter spoke a `NodeEffect.speak` (or could not).
    case spoken(SpeechOutcome)
    /// A station probe's answer (`NodeEffect.probeStation`).
    case stationProbed(StationProbeOutcome)
    /// A playing station's stream announced a title (`AudioEngine.stationTitles`).
    case stationTitle(StationTitle)
    /// A station playing as noise went down (10 s without audio) or came back (`AudioEngine.stationOutages`).
    case stationOutage(StationOutage)
    /// The sounds on disk changed: the adapter built a new library (off the loop and the
    /// cooperative pool) and holds it until `NodeEffect.useSounds` says to take it over.
    case soundsChanged(SoundLibrarySummary)
    /// A backup to restore (`POST /api/restore`, `noiseclock restore` while the node runs): its
    /// bytes, checked whole by the machine; answered by `NodeEffect.reply` as a command is.
    case restore(LocalRequest)
    /// `POST /api/restart` (http-api v1.4): an HTTP-only command, no topic of MQTT's; answered,
    /// then `NodeEffect.restart`.
    case restart(LocalRequest)
    /// The web app's settings changed the time zone or the language (`POST /api/settings`).
    case timeSettings(zone: ZoneRules, locale: NodeLocale)
    /// The web app's settings (`POST /api/settings`, a restore) give the lamp, the shaker and the
    /// buttons as they now are: whatever changed is re-bound at once, the alarms left alone.
    case rebind(DeviceBindings)
    /// A change of `settings.json` (the web app's settings, a broker trial's end): carried out by
    /// the loop's effect performer (`NodeEffect.editSettings`), the file's one writer.
    case settings(SettingsEdit)
    /// The web app's settings (a Save, a restore) give the sound device and the sounds folder
    /// (`audio.device`, `audio.sounds_dir`): moved to by `useSoundDevice` and `watchSoundsFolder`.
    case soundSettings(device: String, soundsDirectory: String?)
}

/// An MQTT message as received, with the v5 request/response properties if present.
public struct InboundMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool
    public var responseTopic: String?
    public var correlationData: [UInt8]?
    /// Set for a command over its cap (`InboundLimits`): the payload's size, the payload itself
    /// left behind (empty) so nothing of it is copied; the command is answered `payload_too_large`.
    public var oversizeBytes: Int?

    public init(
        topic: String, payload: [UInt8], retain: Bool = false, responseTopic: String? = nil, correlationData: [UInt8]? = nil,
        oversizeBytes: Int? = nil
    ) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
        self.responseTopic = responseTopic
        self.correlationData = correlationData
        self.oversizeBytes = oversizeBytes
    }
}

/// A command from another source (the web app): the command topic suffix and the body, exactly
/// as MQTT would carry them, and an id the source uses to match the reply. `requestID`: the body's
/// `request_id` as the web server read it, which `restore` and `restart` echo (a topic's command
/// reads its own from its payload, as over MQTT).
public struct LocalRequest: Sendable, Equatable {
    public var id: UInt64
    public var command: String
    public var payload: [UInt8]
    public var requestID: JSONValue?

    public init(id: UInt64, command: String, payload: [UInt8], requestID: JSONValue? = nil) {
        self.id = id
        self.command = command
        self.payload = payload
        self.requestID = requestID
    }
}
