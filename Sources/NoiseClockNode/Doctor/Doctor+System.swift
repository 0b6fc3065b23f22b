import Glibc
import Logging
import NoiseClockAudio
import NoiseClockCore
import NoiseClockPlatform
import NoiseClockWeb

/// The clock and its zone, the web port, the sounds folder and eSpeak NG.
extension Doctor {
    static func clockChecks(_ prepared: NodeApplication.Prepared, environment: [String: String]) -> [DoctorCheck] {
        // The readiness check's own reading (adjtimex, or the test clock's word).
        let clock = NodeClock(environment: environment)
        let synced: DoctorCheck = switch clock.synced() {
        case true?: DoctorCheck("clock", .ok, "synchronised (NTP)")
        case false?: DoctorCheck("clock", .failed, "not synchronised: an alarm may ring at the wrong time",
                                 advice: "turn on time synchronisation (`timedatectl set-ntp true`) and check `timedatectl`")
        case nil: DoctorCheck("clock", .warning, "the kernel does not say whether the clock is synchronised")
        }
        let zone = prepared.zone
        let now = ISO8601.string(clock.now(), in: zone)
        return [synced, DoctorCheck("timezone", .ok, "\(zone.identifier) is known: it is \(now) there")]
    }

    static func webPortCheck(_ configuration: NodeConfiguration) -> DoctorCheck {
        let web = configuration.web
        guard web.enabled else { return DoctorCheck("web_port", .skipped, "the web app is off (web.enabled)") }
        let address = "\(web.host):\(web.port)"
        switch WebPortProbe.probe(host: web.host, port: web.port) {
        case .free:
            return DoctorCheck("web_port", .ok, "\(address) is free for the web app")
        case .failed(let error):
            return DoctorCheck("web_port", .failed, "cannot listen on \(address): \(error)",
                               advice: "set web.host to an address of this machine (0.0.0.0 for all), or web.port above 1023")
        case .inUse:
            let holders = OpenFileHolders.listeners(port: web.port)
            if let node = holders.first(where: { $0.name == "noiseclock" }) {
                return DoctorCheck("web_port", .ok, "\(address) is held by a running NoiseClock node (PID \(node.pid))")
            }
            let who = holders.isEmpty ? "a program this user cannot see" : holders.map { "\($0.name) (PID \($0.pid))" }.joined(separator: ", ")
            return DoctorCheck("web_port", .failed, "\(address) is taken by \(who)",
                               advice: "stop it, or give the web app another port (web.port)")
        }
    }

    static func soundsCheck(_ configuration: NodeConfiguration) -> DoctorCheck {
        guard let catalog = SoundLibrary.defaultCatalogFile() else {
            return DoctorCheck("sounds", .failed, "sounds.json not found: the node would run without sound",
                               advice: "reinstall, or set NOISECLOCK_RESOURCES to the folder holding sounds.json")
        }
        guard let directory = configuration.audio.soundsDirectory else {
            return DoctorCheck("sounds", .ok, "the built-in sounds (\(catalog)); no sounds folder configured (audio.sounds_dir)")
        }
        // Listing needs r, reading the files in it x: a folder without x lists names it cannot open.
        guard FileBytes.directoryEntries(directory) != nil, access(directory, R_OK | X_OK) == 0 else {
            return DoctorCheck("sounds", .failed, "the sounds folder \(directory) cannot be read",
                               advice: "check that it exists and that \(DeviceAccess.userName()) may list it (r and x)")
        }
        let silent = Logger(label: "doctor", factory: { _ in SwiftLogNoOpLogHandler() })
        let survey: SoundLibrary.Survey
        do {
            survey = try SoundLibrary.survey(directory, catalogFile: catalog, logger: silent)
        } catch {
            return DoctorCheck("sounds", .failed, "the sound catalog is unusable: \(error)", advice: "reinstall the package")
        }
        guard let first = survey.skipped.first else {
            return DoctorCheck("sounds", .ok, "\(directory): \(survey.found.count) sound file\(survey.found.count == 1 ? "" : "s"), all decodable")
        }
        let more = survey.skipped.count > 1 ? " (and \(survey.skipped.count - 1) more)" : ""
        return DoctorCheck("sounds", .failed, "\(directory)/\(first.file) \(first.reason)\(more); \(survey.found.count) file(s) play",
                           advice: "convert it to WAV, FLAC or Ogg (`sox IN OUT.flac`), or remove it")
    }

    static func speechCheck(_ configuration: NodeConfiguration, environment: [String: String]) -> DoctorCheck {
        let speech = configuration.speech
        guard speech.enabled else { return DoctorCheck("speech", .skipped, "speech is off (speech.enabled)") }
        let voice = speech.voice ?? configuration.locale.rawValue
        guard let problem = SpeechAvailability.problem(voice: voice, environment: environment) else {
            return DoctorCheck("speech", .ok, "eSpeak NG is present with the voice \(voice)")
        }
        // eSpeak NG itself works when the locale's own voice does: then only speech.voice is wrong.
        let voiceOnly = voice != configuration.locale.rawValue
            && SpeechAvailability.problem(voice: configuration.locale.rawValue, environment: environment) == nil
        return DoctorCheck("speech", .failed, "eSpeak NG cannot speak \(voice): \(problem)",
                           advice: voiceOnly ? "set speech.voice to one that `espeak-ng --voices` lists, or remove it to speak the locale's voice"
                                             : "`sudo apt install libespeak-ng1 espeak-ng-data`, or set speech.enabled: false")
    }
}
