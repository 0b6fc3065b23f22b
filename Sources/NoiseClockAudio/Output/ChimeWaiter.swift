/// A test chime waiting for the audio thread (`AudioEngine.playChime`).
struct ChimeWaiter: Sendable {
    var done: @Sendable (Result<Int32?, ChimeFailure>) -> Void
}
