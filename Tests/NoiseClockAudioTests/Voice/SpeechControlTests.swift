import Foundation
import Testing
@testable import NoiseClockAudio

/// Issue 31, finding 3, against the real eSpeak NG: nothing in a text can drive the synthesizer.
/// `\u{1}300A` (an embedded command: amplitude 300) made the voice 6–7 dB louder than the same
/// words, to clipping; markup (`<prosody>`, `[[phonemes]]`) is read as words, because the node
/// passes neither `espeakSSML` nor `espeakPHONEMES`.
@Suite struct SpeechControlTests {
    static func rmsDecibels(_ samples: [Int16]) -> Double {
        let mean = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
        return 10 * log10(max(mean, 1e-9))
    }

    static func say(_ text: String) throws -> SpeechSynthesizer.Utterance {
        try SpeechSynthesizer.shared.synthesize(text, voice: "en", rate: 160)
    }

    @Test(arguments: ["\u{01}300A", "\u{01}300A\u{01}99P", "\u{01}200A\u{01}400S"])
    func anEmbeddedCommandChangesNothing(command: String) throws {
        let plain = try Self.say("300A hello there")
        let commanded = try Self.say(command + " hello there")
        let difference = Self.rmsDecibels(commanded.samples) - Self.rmsDecibels(plain.samples)
        print("speech level with \(command.unicodeScalars.map { $0.value < 32 ? "\\u{\($0.value)}" : String($0) }.joined()): \(difference) dB")
        #expect(abs(difference) < 1, "level \(difference) dB from the plain text's")
        #expect(commanded.samples.map { abs(Int($0)) }.max()! < 32000, "clipped")
    }

    /// Read as words, markup takes far longer than the word it would wrap.
    @Test(arguments: ["<prosody volume='+50'>hello</prosody>", "[[h@l'oU]]"])
    func markupIsReadAsWords(text: String) throws {
        let hello = try Self.say("hello")
        let marked = try Self.say(text)
        #expect(marked.seconds > hello.seconds * 1.8, "\(text): \(marked.seconds) s against \(hello.seconds) s for hello")
    }
}
