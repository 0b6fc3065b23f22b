import NoiseClockCore

// What callers hand the audio thread, under `AudioEngine.shared` (tried once a period, never waited for).
extension AudioEngine {
    struct Shared {
        var device: String
        var scene = AudioScene.silence
        var stopping = false
        var status: AudioStatus
        /// Readiness checks for the audio thread to answer.
        var checks: [AudioCheckRequest] = []
        /// The latest utterance (`speak`); the audio thread plays each generation once.
        var speech: SpeechClip?
        /// A rescanned library for the mixer to take (sounds made from now on come from it).
        var library: SoundLibrary?
        /// The latest library, which `apply` opens recordings from (kept: `library` is taken).
        var latestLibrary: SoundLibrary
        /// Recordings `apply` opened for the scenes' new voices, for the mixer to take.
        var prepared = PreparedSources()
        /// Something above changed since the audio thread last looked: it copies the scene (and
        /// compares it with silence) only then, not every period.
        var changed = true
        /// Test chimes (`playChime`) waiting for their first frames to reach the device.
        var chimeWaiters: [ChimeWaiter] = []
    }
}
