import Testing

/// Parent of the suites that measure time on a real node or real audio: how late a fire, a
/// snooze's end or a `~/time` message is (to the tenth of a second), sound levels, ramps and the
/// audio thread's speed. Their clock is the node's, moved by the test, so none waits for the wall
/// clock, but a loaded machine would make the measurement: `make test` runs this suite after the
/// parallel run of everything else, one test at a time (about a minute).
@Suite(.serialized) enum TimingSuite {}
