/// How the noise follows routines and mixes (the rules are the core's: `NodeCore+Programmes.swift`).
extension NoiseFeature {
    /// Plays `active`'s sound and volume while it runs, and stops when it has ended. A noise
    /// started by hand (no `routine`) is left alone when no routine runs.
    mutating func follow(_ active: ActiveRoutine?) {
        // A routine with `sound: "none"` is light and face only: the noise is left alone.
        if let active, active.routine.sound != "none" {
            guard state.routine != active.routine.id else { return }
            state.playing = true
            state.sound = active.routine.sound
            state.volume = active.routine.volume
            state.routine = active.routine.id
            state.sleepTimerMinutes = nil
            state.stopsAt = nil
        } else if state.routine != nil {
            state.playing = false
            state.routine = nil
        }
    }

    /// A manual noise command took over from the routine: the noise is the user's now.
    mutating func release() { state.routine = nil }

    /// `mix/delete` of the selected sound: the noise carries on with its first layer.
    mutating func replaceSound(_ old: String, with new: String) {
        if state.sound == old { state.sound = new }
        if let preview, preview.sound == old { self.preview?.sound = new }
    }
}
