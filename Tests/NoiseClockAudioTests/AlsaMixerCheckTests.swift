@testable import NoiseClockAudio
import Testing

/// Which mixer control decides `output_muted`, and when it says muted. (Reading a real mixer
/// through ALSA is ReadinessTests.aMutedMixerIsAtRiskUntilItIsUnmuted: a control device of the
/// test's own ALSA configuration, an external control plugin, since the test machine has no card.)
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

    @Test func theMixerIsTheCardsElseTheControlDeviceOfThePCMsName() {
        #expect(AlsaMixerCheck.mixerName(device: "plughw:1,0", card: 1) == "hw:1")
        #expect(AlsaMixerCheck.mixerName(device: "default", card: 0) == "hw:0")
        #expect(AlsaMixerCheck.mixerName(device: "bluealsa", card: nil) == "bluealsa")
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
