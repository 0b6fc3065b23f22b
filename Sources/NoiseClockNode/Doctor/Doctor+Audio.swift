import NoiseClockAudio
import NoiseClockCore
import NoiseClockPlatform

/// The sound device, its mixer, who holds it when it is busy, and the user's access to devices.
extension Doctor {
    static func audioChecks(_ configuration: NodeConfiguration) -> [DoctorCheck] {
        let device = configuration.audio.device, rate = configuration.audio.sampleRate
        let probe = AudioDeviceProbe.probe(device: device, sampleRate: rate)
        guard let error = probe.openError else {
            return [DoctorCheck("sound_device", .ok, "\(device) opens as S16_LE stereo at \(rate) Hz"), mixerCheck(device, probe.mixer)]
        }
        let deviceCheck: DoctorCheck
        if probe.busy {
            let holders = OpenFileHolders.holders(prefix: "/dev/snd/pcm")
            let who = holders.isEmpty ? "a program this user cannot see" : holders.map { "\($0.name) (PID \($0.pid), \($0.target))" }
                .joined(separator: ", ")
            deviceCheck = DoctorCheck("sound_device", .failed, "\(device) is busy: held by \(who)",
                                  advice: "stop that program, or let both share the card (PipeWire, or ALSA's dmix) and set audio.device to it")
        } else {
            deviceCheck = DoctorCheck("sound_device", .failed, "\(device) does not open as S16_LE stereo at \(rate) Hz: \(error)",
                                  advice: "`aplay -L` lists the devices: set audio.device to one of them (docs/configuration.md)")
        }
        return [deviceCheck, DoctorCheck("mixer", .skipped, "not read: the device did not open")]
    }

    static func mixerCheck(_ device: String, _ mixer: AudioDeviceProbe.Mixer?) -> DoctorCheck {
        guard let mixer else { return DoctorCheck("mixer", .ok, "\(device) has no mixer of its own to read (its volume is the node's)") }
        let switchText = mixer.switchedOn.map { $0 ? "switch on" : "switch off" }
        let volumeText = mixer.volumePercent.map { "volume \($0) %" }
        let state = [switchText, volumeText].compactMap { $0 }.joined(separator: ", ")
        guard let muted = mixer.mutedMessage else { return DoctorCheck("mixer", .ok, "\(mixer.control): \(state)") }
        return DoctorCheck("mixer", .failed, "\(muted) (\(mixer.control): \(state))",
                           advice: "turn it up: `alsamixer` (F6 picks the card), or `amixer set '\(mixer.control)' unmute 80%`")
    }

    /// /dev/snd for sound, /dev/input for buttons (needed only when `buttons` has a local one).
    static func accessChecks(_ configuration: NodeConfiguration, environment: [String: String]) -> [DoctorCheck] {
        let dev = environment[NodeConfiguration.testDeviceDirectoryKey] ?? "/dev"
        let user = DeviceAccess.userName()
        let needsInput = configuration.buttons.contains {
            if case .input = $0.source { return true }
            return false
        }
        return [
            accessCheck("sound_access", directory: dev + "/snd", user: user, needed: true),
            accessCheck("input_access", directory: dev + "/input", user: user, needed: needsInput),
        ]
    }

    static func accessCheck(_ id: String, directory: String, user: String, needed: Bool) -> DoctorCheck {
        let survey = DeviceAccess.survey(directory)
        guard survey.exists else {
            return DoctorCheck(id, needed ? .warning : .ok, "no \(directory) on this machine" + (needed ? "" : " (not needed)"),
                               advice: needed ? "a USB or HAT device may not be plugged in or its driver not loaded" : nil)
        }
        guard let first = survey.denied.first else {
            return DoctorCheck(id, .ok, "\(user) may read and write the \(survey.devices) devices in \(directory)")
        }
        let verdict = "\(user) cannot open \(survey.denied.count) of \(survey.devices) devices in \(directory) (\(first.path), group \(first.group))"
        let advice = first.inGroup
            ? "\(user) is in \(first.group) but the file's mode refuses: check the udev rules for \(first.path)"
            : "`sudo adduser \(user) \(first.group)`, then log in again (the package's service user has it)"
        return DoctorCheck(id, needed ? .failed : .warning, verdict, advice: advice)
    }

    /// `--play`: a second of 440 Hz through the configured device.
    static func toneCheck(_ configuration: NodeConfiguration) -> DoctorCheck {
        do {
            try AudioDeviceProbe.playTone(device: configuration.audio.device, sampleRate: configuration.audio.sampleRate)
            return DoctorCheck("tone", .ok, "played 1 s of 440 Hz on \(configuration.audio.device)",
                               advice: "heard nothing? check the speaker, its cable and its own volume knob")
        } catch {
            return DoctorCheck("tone", .failed, "could not play on \(configuration.audio.device): \(error)",
                               advice: "see sound_device and mixer above")
        }
    }
}
