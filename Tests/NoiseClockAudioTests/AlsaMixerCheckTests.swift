@testable import NoiseClockAudio
import Testing

/// Which mixer control decides `output_muted`, and when it says muted. (Reading a real card's
/// mixer needs a sound card, which the test machine has not; the reading is these values.)
@Suite struct AlsaMixerCheckTests {
    typealias Control = AlsaMixerCheck.Control

    @Test func mutedWhenEveryChannelIsOffOrAtTheMinimum() {
        #expect(Control(name: "Master", switches: [false, false], volumes: [40, 40], minimum: 0).mutedMessage?.contains("switch is off") == true)
        #expect(Control(name: "Master", switches: [true, false], volumes: [40, 40], minimum: 0).mutedMessage == nil, "one side still plays")
        #expect(Control(name: "PCM", switches: [], volumes: [0, 0], minimum: 0).mutedMessage?.contains("volume is at 0") == true)
        #expect(Control(name: "PCM", switches: [], volumes: [-9999, -9999], minimum: -9999).mutedMessage != nil)
        #expect(Control(name: "PCM", switches: [], volumes: [0, 3], minimum: 0).mutedMessage == nil)
        #expect(Control(name: "Speaker", switches: [true], volumes: [], minimum: 0).mutedMessage == nil)
    }

    @Test func masterDecidesThenTheUsualNamesThenTheFirst() {
        let capture = Control(name: "Capture", switches: [false], volumes: [], minimum: 0)
        let pcm = Control(name: "PCM", switches: [true], volumes: [10], minimum: 0)
        let master = Control(name: "Master", switches: [false], volumes: [10], minimum: 0)
        #expect(AlsaMixerCheck.decisive([capture, pcm, master]) == master)
        #expect(AlsaMixerCheck.decisive([capture, pcm]) == pcm)
        #expect(AlsaMixerCheck.decisive([capture]) == capture)
        #expect(AlsaMixerCheck.decisive([]) == nil)
    }
}
