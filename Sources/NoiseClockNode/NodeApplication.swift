import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockMQTT
import NoiseClockPlatform
import NoiseClockThreads
import NoiseClockWeb
import ServiceLifecycle
import UnixSignals

/// Builds the node from its configuration and runs it until SIGTERM or SIGINT.
public enum NodeApplication {
    /// Everything that must be true before the node may start; a failure here is a
    /// configuration problem (exit status 2), reported as one line naming the key.
    public struct Prepared: Sendable {
        public let configuration: NodeConfiguration
        public let warnings: [ConfigurationWarning]
        public let zone: ZoneRules
        /// The configuration file as an absolute path (`~/info`).
        public let configFile: String
    }

    /// The test suite's hook (docs/configuration.md): a decimal seed for every random choice the
    /// node makes, so a test sees the same noise and the same delays on every run.
    public static let testSeedKey = "NOISECLOCK_TEST_SEED"

    public static func prepare(configPath: String, environment: [String: String]) async throws(ConfigurationError) -> Prepared {
        var loaded = try await NodeConfiguration.load(path: configPath, environment: environment)
        // A restore killed mid-way is finished first; it may have brought a new settings.json.
        if let completed = RestoreJournal.completeAtStart(directory: loaded.configuration.stateDirectory) {
            loaded = try await NodeConfiguration.load(path: configPath, environment: environment)
            loaded.warnings.insert(completed, at: 0)
        }
        let configuration = loaded.configuration
        let zone: ZoneRules
        do {
            zone = try ZoneLoader.load(configuration.timezone)
        } catch {
            throw ConfigurationError(key: "timezone", message: error.description)
        }
        return Prepared(configuration: configuration, warnings: loaded.warnings, zone: zone, configFile: SystemIdentity.absolutePath(configPath))
    }

    /// Runs the node until it stops; `.restart` when it stopped to start again (`NodeRestart`).
    @discardableResult
    public static func run(_ prepared: Prepared, environment: [String: String], logger: Logger) async throws -> Ending {
        ProcessMemory.configureForLongRuns()
        for warning in prepared.warnings { logger.warning("\(warning.description)") }
        let store = StateStore(directory: prepared.configuration.stateDirectory)
        try store.prepare()
        let lock = try holdStateDirectory(prepared.configuration.stateDirectory, logger: logger)
        lock?.record(RunningWeb.record(prepared.configuration.web))
        defer { withExtendedLifetime(lock) {} }
        // The real-time clock; tests shift it through NOISECLOCK_TEST_CLOCK_FILE.
        let clock = NodeClock(environment: environment)
        // A state file of a newer format stops the start here, the state directory untouched.
        let documents = try loadDocuments(store: store, clock: clock, logger: logger)
        // Crashed starts counted (safe mode after 2 in a row): before anything else that could crash
        // (the state files are read in safe mode too: a crash there is not one safe mode could avoid).
        let starts = StartRecorder(store: store, now: clock.now(), logger: logger)
        defer { starts.stoppedCleanly() }
        crashIfAsked(environment, logger: logger)
        let configuration = starts.safeMode == nil ? prepared.configuration : safeModeConfiguration(prepared.configuration)
        let topics = TopicScheme(base: configuration.mqtt.baseTopic, nodeID: configuration.nodeID)
        let restart = NodeRestart()

        let settings = NodeSettings(
            nodeID: configuration.nodeID, locale: configuration.locale, zone: prepared.zone, devices: configuration.devices,
            stream: configuration.stream, safeMode: starts.safeMode
        )
        // A test fixes the node's random choices (its noise, the re-publication delay) with one seed.
        let testSeed = environment[testSeedKey].flatMap { UInt64($0) }
        if let testSeed { logger.notice("random choices seeded (\(testSeedKey))", metadata: ["seed": "\(testSeed)"]) }
        let library = loadSounds(configuration, seeds: NoiseSeeds(testSeed), logger: logger)
        var core = NodeCore(
            settings: settings, catalog: library?.catalog ?? .empty, documents: documents,
            batteryIntervalSeconds: Int64(configuration.battery.intervalSeconds), now: clock.now()
        )
        let audio = library.map {
            AudioEngine(device: configuration.audio.device, sampleRate: configuration.audio.sampleRate, library: $0, logger: logger, clock: clock.now,
                        userAgent: configuration.stream.userAgent, caFile: configuration.stream.caFile,
                        allowsLocalAddresses: configuration.stream.allowsLocalAddresses)
        }
        if library == nil {
            let error = "no sound catalog (sounds.json not found or unusable)"
            core.audioChanged(AudioStatus(device: configuration.audio.device, state: .unavailable, error: error))
        }
        let web = configuration.web
        let discovery = DiscoverySettings(
            enabled: configuration.homeAssistant.discovery, prefix: configuration.homeAssistant.prefix,
            configurationURL: web.enabled ? NodeWeb.baseURL(web) : nil
        )
        let inbox = NodeInbox()
        let soundsFolder = SoundsFolder(directory: configuration.audio.soundsDirectory)
        let audioDesk = AudioDesk(engine: audio, device: configuration.audio.device, sampleRate: configuration.audio.sampleRate)
        let board = ButtonBoard(definitions: configuration.buttons, timing: configuration.buttonTiming)
        // Local buttons need their reader threads (none yet, perhaps: the web app may bind some);
        // MQTT buttons arrive with the commands.
        let buttons = ButtonService(board: board, inbox: inbox)
        let mqtt = try MQTTClient(
            options: mqttOptions(configuration, topics: topics),
            subscriptions: topics.commandSubscriptions + [topics.groupRingSubscription] + discovery.subscriptions(nodeID: topics.nodeID),
            logger: logger, payloadCap: MQTTService.payloadCap(InboundLimits(topics: topics, discovery: discovery)),
            onEvent: { inbox.send(MQTTService.input(for: $0)) }
        )
        // Re-bound while the node runs (`NodeEffect.subscribe`): the devices' and MQTT buttons' topics.
        mqtt.subscribe(group: SubscriptionGroup.devices.rawValue, topics: configuration.devices.stateTopics)
        mqtt.subscribe(group: SubscriptionGroup.buttons.rawValue, topics: board.mqttTopics)
        // Settings changed in the web app: a new broker is tried live, rolled back unless it connects.
        let broker = BrokerSwitch(client: mqtt, running: configuration, clock: clock, logger: logger,
                                  settleLater: { [inbox] trial in _ = inbox.send(.settings(.brokerConnected(generation: trial))) })
        let webSwitch = try web.enabled ? WebSwitch(running: configuration, token: NodeWeb.token(web), clock: clock, logger: logger,
                                                    record: { [lock] running in lock?.record(RunningWeb.record(running)) }) : nil
        let settingsAPI = SettingsAPI(
            configPath: prepared.configFile, environment: environment, stateDirectory: configuration.stateDirectory,
            applied: { [inbox] changed in
                // On the loop (a Save's effect, a restore's answer): what applies now goes in as inputs.
                inbox.send(.soundSettings(device: changed.audio.device, soundsDirectory: changed.audio.soundsDirectory))
                inbox.send(.rebind(changed.bindings))
                // The zone was checked by the loader; one that cannot be read now stays for the restart.
                guard let zone = try? ZoneLoader.load(changed.timezone) else { return }
                _ = inbox.send(.timeSettings(zone: zone, locale: changed.locale))
            }, broker: broker, web: webSwitch)
        settingsAPI.started()
        let brokerProbe = BrokerProbe(running: { broker.connected }, logger: logger)
        let searchDesk = configuration.stream.directory.map { StationSearchDesk(directory: $0, logger: logger) }
        let server = web.enabled ? try NodeWeb.server(
            configuration, zone: prepared.zone, inbox: inbox, now: clock.now, settings: settingsAPI,
            audio: audioDesk, probe: brokerProbe,
            search: searchDesk, logger: logger) : nil
        if let server { audioDesk.attach(server) }
        let timer = try WakeTimer(clock: clock) { event in
            switch event {
            case .wake: inbox.send(.wake)
            case .clockChanged: inbox.send(.clockChanged)
            }
        }
        logger.info("starting", metadata: [
            "node_id": "\(configuration.nodeID)", "topic": "\(topics.root)", "broker": "\(mqtt.options)",
            "timezone": "\(prepared.zone.identifier)", "state_dir": "\(configuration.stateDirectory)",
        ])
        let speechSettings = configuration.speech
        let voice = speechSettings.voice ?? configuration.locale.rawValue
        // Files on disk only: eSpeak NG itself is loaded on the first utterance.
        let speechProblem = speechSettings.enabled ? SpeechAvailability.problem(voice: voice, environment: environment) : nil
        if let speechProblem { logger.warning("speech unavailable", metadata: ["voice": "\(voice)", "error": "\(speechProblem)"]) }
        let speech = speechSettings.enabled
            ? SpeechService(engine: audio, voice: voice, rate: speechSettings.rate, sampleRate: configuration.audio.sampleRate, inbox: inbox)
            : nil
        let machine = NodeMachine(core: core, topics: topics, discovery: discovery, persisted: documents,
                                  seed: testSeed ?? UInt64.random(in: .min ... .max), observed: server != nil, buttons: board,
                                  speech: SpeechSettings(
                                    enabled: speechSettings.enabled, volume: speechSettings.volume, voice: voice,
                                    confirmButtons: speechSettings.confirmButtons,
                                    problem: speechProblem),
                                  info: NodeInfo(startedAt: clock.now(), configFile: prepared.configFile,
                                                 stateDirectory: SystemIdentity.absolutePath(configuration.stateDirectory),
                                                 architecture: SystemIdentity.architecture(), safeMode: starts.safeMode))
        let notifier = SystemdNotifier(environment: environment)
        let (probes, probeContinuation) = AsyncStream.makeStream(of: ReadinessProbe.self, bufferingPolicy: .bufferingNewest(4))
        let soundFiles = SoundFiles(library: library, inbox: inbox, logger: logger)
        let probeCutter = StreamCutter()
        let stationProbes = StationProber.threads(cutter: probeCutter)
        let directoryTells = JobThreads(name: "directory-tell")
        // A restore's settings apply as a Save's would (only the web app restores).
        let settingsRestored: (@Sendable () -> Void)? = server == nil ? nil : { @Sendable in settingsAPI.restored() }
        let loop = NodeLoop(
            inbox: inbox, machine: machine, store: store,
            effects: EffectPerformer(
                mqtt: mqtt, timer: timer, audio: audio, web: server, readiness: probeContinuation, buttons: buttons, speech: speech,
                sounds: soundFiles,
                stations: StationProber(
                    inbox: inbox, threads: stationProbes, cutter: probeCutter, userAgent: configuration.stream.userAgent,
                    caFile: configuration.stream.caFile, allowsLocalAddresses: configuration.stream.allowsLocalAddresses),
                directory: configuration.stream.directory, directoryTells: directoryTells,
                restored: settingsRestored,
                settings: settingsAPI, audioDesk: audioDesk, soundsFolder: soundsFolder,
                exitSafeMode: { starts.exitSafeMode(); restart.request() },
                restart: { restart.request() },
                logger: logger),
            notifier: notifier, clock: clock.now, logger: logger, starts: starts, restart: restart
        )
        // Dependency order: started together, shut down in reverse — the loop first (nothing new
        // is decided), the web server (answers commands still waiting `shutting_down`), the polls,
        // MQTT (publishes `offline`), the timer and the audio. Before them all, the deadline is
        // armed: whatever an adapter does, the process ends within 5 s, `offline` published.
        var services: [any Service] = []
        // First: stopped last, once nothing can start a probe, a test or a trial any more.
        let jobs = [stationProbes, directoryTells, brokerProbe.threads, broker.trials] + (searchDesk.map { [$0.threads] } ?? [])
        services.append(JobThreadsService(threads: jobs + (webSwitch.map { [$0.trials] } ?? [])))
        if let audio { services.append(AudioService(engine: audio, inbox: inbox)) }
        services.append(WakeTimerService(timer: timer))
        services.append(MQTTService(client: mqtt, availabilityTopic: topics.topic("availability")))
        services.append(BatteryService(
            battery: SysfsBattery(path: configuration.battery.path, logger: logger), inbox: inbox,
            pollSeconds: min(5, configuration.battery.intervalSeconds)
        ))
        services.append(ClockSyncService(clock: clock, inbox: inbox))
        services.append(ReadinessService(
            audio: audio, sounds: soundFiles, clock: clock, inbox: inbox, probes: probes, stream: configuration.stream))
        if let interval = notifier.watchdogInterval { services.append(WatchdogService(interval: interval, inbox: inbox)) }
        if let server { services.append(WebService(server: server)) }
        services.append(audioDesk)
        services.append(SoundsWatchService(files: soundFiles, folder: soundsFolder, stateDirectory: configuration.stateDirectory, logger: logger))
        services.append(buttons)
        if let speech { services.append(speech) }
        services.append(loop)
        let deadline = ShutdownDeadline(mqtt: mqtt, availabilityTopic: topics.topic("availability"), logger: logger)
        services.append(ShutdownDeadlineService(deadline: deadline))
        // What runs, by type: ArchitectureServicesNodeTests compares it with docs/architecture.md.
        logger.debug("services: \(services.map { String(describing: type(of: $0)) }.joined(separator: " "))")
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        defer { deadline.disarm() }
        try await group.run()
        return restart.isRequested ? .restart : .stopped
    }

    /// How the node reaches its broker (every `mqtt.*` key); `noiseclock fleet --config` uses it too.
    public static func mqttOptions(_ configuration: NodeConfiguration, topics: TopicScheme) -> MQTTOptions {
        let mqtt = configuration.mqtt
        var options = MQTTOptions(
            host: mqtt.host, port: mqtt.port, clientID: mqtt.clientID,
            username: mqtt.username, password: mqtt.password?.value,
            tls: .init(caFile: mqtt.tls.caFile, certFile: mqtt.tls.certFile, keyFile: mqtt.tls.keyFile),
            keepaliveSeconds: mqtt.keepaliveSeconds,
            protocolVersion: mqtt.protocolVersion == .v5 ? .v5 : .v311,
            will: .init(topic: topics.topic("availability"), payload: Array("offline".utf8), qos: 1, retain: true)
        )
        options.failover = mqtt.hosts.dropFirst().map { ($0.host, $0.port) }
        options.maximumPacketBytes = InboundLimits.maximumPacketBytes
        return options
    }
}
