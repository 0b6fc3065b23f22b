extension NodeMachine.Draft {
    /// The sounds directory changed (a custom file added, removed or replaced): the adapter's new
    /// library is taken over first (before this plan's scene, which may play a new file or fall
    /// back from a gone one), then `~/sounds`, the pickers in Home Assistant and the web app
    /// follow; noise whose sound went away plays brown.
    mutating func soundsChanged(_ summary: SoundLibrarySummary) {
        // Always: an unchanged catalog can still name a file renamed on disk.
        effects.append(.useSounds(generation: summary.generation))
        let catalog = summary.catalog
        guard catalog != core.catalog else { return }
        var next = core
        next.catalog = catalog
        if let reason = next.soundsChanged() { log(.warning, "noise sound gone; playing brown instead", ["reason": reason]) }
        log(.info, "sound catalog changed", ["noise": "\(catalog.noise.count)", "alarm": "\(catalog.alarm.count)"])
        // `~/sounds` is rendered by the mixes feature, which did not change itself.
        machine.retainedFrom[.mixes] = nil
        commit(next, outbox: [])
    }
}
