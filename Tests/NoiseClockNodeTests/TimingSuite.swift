import Testing

/// Parent of the suites that measure time on a real node or real audio: how late a fire, a
/// snooze's end or a `~/time` message is (to the tenth of a second), sound levels, ramps and the
/// audio thread's speed. Their clock is the node's, moved by the test, so none waits for the wall
/// clock, but a loaded machine would make the measurement: `make test` runs this suite after the
/// parallel run of everything else, in two lanes side by side, each one test at a time.
@Suite enum TimingSuite {
    /// Real audio captured from the node's ALSA output (levels, ramps, the audio thread's speed):
    /// never two captures at once. The audio thread needs little CPU, so the clock lane beside it
    /// does not change what it measures.
    @Suite(.serialized) enum Audio {}

    /// Lateness of fires, snoozes, `~/time` and Home Assistant's republishing, to the tenth of a
    /// second: never two at once; beside at most one audio capture.
    @Suite(.serialized) enum Clock {}
}
