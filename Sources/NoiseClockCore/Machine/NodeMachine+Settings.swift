extension NodeMachine.Draft {
    /// A change of `settings.json`: the machine decides nothing of it (the configuration loader,
    /// outside the core, checks it), but it goes out as an effect in the loop's order, so the loop
    /// is the file's one writer (`SettingsEdit`).
    mutating func settings(_ edit: SettingsEdit) {
        effects.append(.editSettings(edit))
    }

    /// The sound device and the sounds folder as the settings now give them: the engine and the
    /// sounds watcher are moved by effects (each leaves an unchanged one as it is).
    mutating func soundSettings(device: String, soundsDirectory: String?) {
        effects.append(.useSoundDevice(device))
        effects.append(.watchSoundsFolder(soundsDirectory))
    }
}
