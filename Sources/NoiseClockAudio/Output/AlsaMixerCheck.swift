import CALSA

/// Reads the ALSA mixer of a sound card without changing it: is the playback control the
/// speaker hangs on switched off or at its minimum? (`output_muted`.)
enum AlsaMixerCheck {
    /// One playback control as read: each channel's switch (nil: the control has none) and volume.
    struct Control: Equatable {
        var name: String
        var switches: [Bool]
        var volumes: [Int]
        var minimum: Int
        /// The top of the volume range (doctor's percentage).
        var maximum = 0

        /// Muted when every channel is switched off, or every volume is at the minimum.
        var mutedMessage: String? {
            if !switches.isEmpty, switches.allSatisfy({ !$0 }) { return "the mixer's \(name) playback switch is off" }
            if !volumes.isEmpty, volumes.allSatisfy({ $0 <= minimum }) { return "the mixer's \(name) playback volume is at 0" }
            return nil
        }
    }

    /// Controls a speaker usually hangs on, most decisive first.
    static let preferred = ["Master", "Speaker", "PCM", "Headphone", "Line Out"]

    /// The control that decides (a preferred name, else the first playback control).
    static func decisive(_ controls: [Control]) -> Control? {
        for name in preferred { if let control = controls.first(where: { $0.name == name }) { return control } }
        return controls.first
    }

    /// The control device whose mixer decides for PCM `device`: its sound card's (`hw:N`) when the
    /// opened PCM is on a card; otherwise the control device of the same name as the PCM, which
    /// ALSA's configuration defines beside a PCM that is not on a card but has a volume of its own
    /// (`pcm.pulse` and `ctl.pulse`, `pcm.bluealsa` and `ctl.bluealsa`, `default` with either). A
    /// name with no control device defined (`null`, a `file` PCM) has no mixer to read.
    static func mixerName(device: String, card: Int32?) -> String {
        card.map { "hw:\($0)" } ?? device
    }

    /// nil when the control device `mixer` cannot be opened (no mixer to read), or it is audible.
    static func mutedMessage(mixer name: String) -> String? { decisiveControl(mixer: name)?.mutedMessage }

    /// The playback control that decides whether the speaker is heard; nil when there is no mixer to read.
    static func decisiveControl(mixer name: String) -> Control? {
        var handle: OpaquePointer?
        guard snd_mixer_open(&handle, 0) >= 0, let mixer = handle else { return nil }
        defer { snd_mixer_close(mixer) }
        guard snd_mixer_attach(mixer, name) >= 0, snd_mixer_selem_register(mixer, nil, nil) >= 0, snd_mixer_load(mixer) >= 0 else {
            return nil
        }
        var controls: [Control] = []
        var element = snd_mixer_first_elem(mixer)
        while let current = element {
            if let control = read(current) { controls.append(control) }
            element = snd_mixer_elem_next(current)
        }
        return decisive(controls)
    }

    private static func read(_ element: OpaquePointer) -> Control? {
        let hasSwitch = snd_mixer_selem_has_playback_switch(element) != 0
        let hasVolume = snd_mixer_selem_has_playback_volume(element) != 0
        guard snd_mixer_selem_is_active(element) != 0, hasSwitch || hasVolume else { return nil }
        var control = Control(name: String(cString: snd_mixer_selem_get_name(element)), switches: [], volumes: [], minimum: 0)
        var low = 0, high = 0
        if hasVolume { _ = snd_mixer_selem_get_playback_volume_range(element, &low, &high) }
        control.minimum = low
        control.maximum = high
        for raw in 0...Int32(SND_MIXER_SCHN_LAST.rawValue) {
            let channel = snd_mixer_selem_channel_id_t(rawValue: raw)
            guard snd_mixer_selem_has_playback_channel(element, channel) != 0 else { continue }
            if hasSwitch {
                var on: Int32 = 1
                if snd_mixer_selem_get_playback_switch(element, channel, &on) >= 0 { control.switches.append(on != 0) }
            }
            if hasVolume {
                var volume = 0
                if snd_mixer_selem_get_playback_volume(element, channel, &volume) >= 0 { control.volumes.append(volume) }
            }
        }
        return control
    }
}
