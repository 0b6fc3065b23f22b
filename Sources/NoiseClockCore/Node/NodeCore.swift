/// The whole node as a value: everything it knows and every rule for changing it. The node
/// service owns one, hands it events with the current instant, and carries out what comes back.
/// Being a value, a change that cannot be persisted is rolled back by keeping the old copy.
public struct NodeCore: Sendable {
    public var settings: NodeSettings {
        // The stations feature judges a new station's host by `stream.allow_local_addresses`, and
        // refuses `station/test` in safe mode.
        didSet {
            stations.allowsLocalAddresses = settings.stream.allowsLocalAddresses
            stations.safeMode = settings.safeMode != nil
        }
    }
    public var catalog: SoundCatalog
    public internal(set) var alarms: AlarmsFeature
    public internal(set) var style: StyleFeature
    public internal(set) var noise: NoiseFeature
    public internal(set) var routines: RoutinesFeature
    public internal(set) var timers: TimersFeature
    public internal(set) var mixes: MixesFeature
    public internal(set) var stations: StationsFeature
    /// What the light shows and why (`~/light`); the lamp (`devices.lamp`) shows it.
    public internal(set) var light = LightFeature()
    /// The lamp, the bed shaker's plug: the bridged devices (`devices.lamp`, `devices.shaker`).
    public internal(set) var devices: DeviceList
    public internal(set) var battery: BatteryPublisher
    public internal(set) var audioStatus: AudioStatus?
    /// Whether the kernel's clock is synchronised (NTP), as `~/time` reports it; nil: unknown.
    public internal(set) var clockSynced: Bool?
    /// The next `~/time` boundary to publish at; nil until time first advances.
    public internal(set) var timeCursor: Instant?
    /// When readiness is next checked (not persisted).
    public internal(set) var readinessSchedule = ReadinessSchedule()
    /// What `at_risk` has named for which next alarm (not persisted: a restart warns again).
    var readinessWarnings = ReadinessWarnings()

    /// State file names in `state_dir`.
    public enum StateFile {
        public static let alarms = "alarms.json"
        public static let style = "style.json"
        public static let noise = "noise.json"
        public static let routines = "routines.json"
        public static let timers = "timers.json"
        public static let mixes = "mixes.json"
        /// Radio stations (v1.3); a backup carries it like the others.
        public static let stations = "stations.json"
    }

    /// Every state file the core reads at start.
    public static let stateFileNames = [
        StateFile.alarms, StateFile.style, StateFile.noise, StateFile.routines, StateFile.timers, StateFile.mixes, StateFile.stations,
    ]

    public init(
        settings: NodeSettings, catalog: SoundCatalog = .empty, documents: [String: JSONValue] = [:],
        batteryIntervalSeconds: Int64 = 60, now: Instant
    ) {
        // Fields a newer release added are not this node's to read (the machine writes them back).
        let documents = Self.knownParts(documents)
        self.settings = settings
        self.catalog = catalog
        alarms = AlarmsFeature(restoring: documents[StateFile.alarms])
        style = StyleFeature(restoring: documents[StateFile.style], now: now)
        noise = NoiseFeature(restoring: documents[StateFile.noise])
        routines = RoutinesFeature(restoring: documents[StateFile.routines])
        timers = TimersFeature(restoring: documents[StateFile.timers])
        mixes = MixesFeature(restoring: documents[StateFile.mixes])
        stations = StationsFeature(restoring: documents[StateFile.stations])
        stations.allowsLocalAddresses = settings.stream.allowsLocalAddresses
        stations.safeMode = settings.safeMode != nil
        devices = DeviceList(settings: settings.devices)
        battery = BatteryPublisher(intervalSeconds: batteryIntervalSeconds)
        // A saved noise whose sound is no longer offered (its file removed, or refused by the
        // format check, while the node was down) plays brown and says why, as after a rescan.
        if !catalog.noise.isEmpty { _ = soundsChanged() }
    }

    public func context(_ now: Instant) -> FeatureContext {
        FeatureContext(now: now, zone: settings.zone, locale: settings.locale, catalog: soundCatalog)
    }

    /// Applies one command. Events to publish go into `outbox`, what the world must do for it into
    /// `effects` (the machine carries them out); the response is returned. A refused command
    /// leaves the core, the outbox and the effects unchanged.
    /// `fromGroup`: the command came from another node's group message, so it is not passed on.
    public mutating func handle(
        _ message: CommandMessage, now: Instant, outbox: inout [Publication], effects: inout [FeatureEffect], fromGroup: Bool = false
    ) -> Response {
        let context = context(now)
        let before = self
        var events: [Publication] = []
        var asked: [FeatureEffect] = []
        let result = ruleRefusal(message.topic, message.payload).map { .failure($0) }
            ?? dispatch(message.topic, message.payload, context: context, outbox: &events, effects: &asked)
        guard case .success(var value) = result else {
            return Response(command: message.topic.rawValue, requestID: message.payload.requestID, outcome: result)
        }
        outbox += events
        effects += asked
        applyRules(afterCommand: message.topic, before: before, result: &value, fromGroup: fromGroup, context: context, outbox: &outbox)
        advance(to: now, outbox: &outbox)
        return Response(command: message.topic.rawValue, requestID: message.payload.requestID, outcome: .success(value))
    }

    /// Moves the node to `now`: fires whatever is due and publishes the time on boundaries.
    public mutating func advance(to now: Instant, outbox: inout [Publication]) {
        var advance = AdvanceVisitor(context: context(now))
        for id in FeatureID.allCases { visit(id, &advance) }
        outbox += advance.outbox
        let context = advance.context
        applyRules(afterAdvance: context, outbox: &outbox)
        advanceTime(to: now, outbox: &outbox)
    }

    /// The system clock was set: forget plans made on the old clock.
    public mutating func clockChanged(now: Instant, outbox: inout [Publication]) {
        timeCursor = nil
        var change = ClockChangeVisitor(context: context(now))
        for id in FeatureID.allCases { visit(id, &change) }
        outbox += change.outbox
        advance(to: now, outbox: &outbox)
    }

    /// A new battery reading; the publisher decides whether it goes out.
    public mutating func batteryRead(_ reading: BatteryReading, now: Instant, outbox: inout [Publication]) {
        if let publication = battery.offer(reading, now: now) { outbox.append(publication) }
    }

    public mutating func audioChanged(_ status: AudioStatus) {
        audioStatus = status
        noise.state.deviceProblem = status.problem
    }

    /// The device's status changed: a ring that cannot be heard now is reported `failed`, and
    /// `~/noise` says whether the noise it plays can be heard (v1.4).
    public mutating func audioChanged(_ status: AudioStatus, now: Instant, outbox: inout [Publication]) {
        audioStatus = status
        noise.state.deviceProblem = status.problem
        anUnheardRingFailsOver(now: now, outbox: &outbox)
    }

    /// The earliest instant something is due; the node arms its wake-up timer for it.
    public func nextDeadline(after now: Instant) -> Instant {
        let context = context(now)
        let time = timeCursor ?? now.nextBoundary(every: timePeriodSeconds)
        let due = (features.compactMap { $0.nextDeadline(context: context) } + deviceDeadlines(context: context)).reduce(time, min)
        let withSound = [alarmSoundDeadline, prerollDeadline(now: now)].compactMap { $0 }.reduce(due, min)
        return readinessDeadline.map { min($0, withSound) } ?? withSound
    }

    /// Retained state, topic by topic, all of it (the fuzzer checks every payload is valid JSON).
    public func retainedState(now: Instant) -> [Publication] {
        let context = context(now)
        return features.flatMap { $0.retained(context: context) } + deviceRetained
    }

    /// The retained topics that are not a feature's: `~/battery` and `~/audio`.
    public var deviceRetained: [Publication] {
        battery.retained + (audioStatus.map { [$0.publication] } ?? [])
    }

    /// The state files to keep in `state_dir`, by file name.
    public func persistentState() -> [String: JSONValue] {
        var files: [String: JSONValue] = [:]
        for feature in features {
            if let file = type(of: feature).stateFile { files[file] = feature.persistent }
        }
        return files
    }

    /// What should be audible now: the noise (ducked while an alarm rings), a preview, the alarm.
    public func audioScene(now: Instant) -> AudioScene {
        var scene = noise.audioScene(context: context(now))
        if let active = routines.active, noise.state.routine == active.routine.id, scene.noise != nil {
            scene.noise?.fadeIn = active.fadeIn
            scene.noise?.fadeOut = active.fadeOut
        }
        if let ring = alarms.ring, ring.phase == .ringing, let alarm = ring.soundingAlarm {
            // Alarms that fired together share one ring: it sounds the first that has a sound.
            scene.alarm = AudioScene.Alarm(
                sound: alarm.sound, volume: alarm.volume, since: ring.since, rampSeconds: alarm.rampSeconds,
                id: alarm.id, startVolume: alarm.startVolume
            )
            // A station that could not be heard: the fallback tone, under the same wake curve.
            if ring.activeStreamFallback != nil {
                scene.alarm?.sound = StreamSettings.fallbackTone
                scene.alarm?.streamFallback = true
            }
        } else {
            scene.preAlarm = alarms.preAlarmScene(now: now, zone: settings.zone)
            // A pre-alarm sound may be a mix: it plays as its layers.
            if let sound = scene.preAlarm?.sound { scene.preAlarm?.layers = soundCatalog.noiseLayers(of: sound) ?? [] }
            scene.preroll = aStationRingIsConnectedEarly(now: now)
        }
        withStations(&scene)
        return scene
    }
}
