import Testing
@testable import NoiseClockAudio

/// The check `~/speech` starts from, against this machine's eSpeak NG (libespeak-ng1 and
/// espeak-ng-data installed): the files it looks for, without loading the library.
@Suite struct SpeechAvailabilityTests {
    @Test(arguments: ["en", "ko", "en-us", "EN-US", "gmw/en", "en+f3", "nb"])
    func installedVoicesAreAvailable(voice: String) {
        #expect(SpeechAvailability.problem(voice: voice, environment: [:]) == nil)
    }

    @Test func anUnknownVoiceOrMissingDataIsSaid() {
        #expect(SpeechAvailability.problem(voice: "xx", environment: [:]) == #"no eSpeak NG voice "xx" (see espeak-ng --voices)"#)
        #expect(
            SpeechAvailability.problem(voice: "en", environment: ["ESPEAK_DATA_PATH": "/nonexistent"])
                == "no eSpeak NG data (/nonexistent/espeak-ng-data/phontab is missing; install espeak-ng-data)")
    }
}
