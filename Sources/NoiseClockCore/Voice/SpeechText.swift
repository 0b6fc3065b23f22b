/// Text as eSpeak NG is given it. eSpeak NG acts on control characters inside its text without
/// any flag: U+0001 starts an embedded command (`\u{1}300A` raised the voice 7.4 dB past the 0–100
/// volume, to clipping; `S`, `P`, `H` set speed, pitch, emphasis). So every control character
/// (C0, DEL, C1) goes: a line break or tab becomes a space, the rest are dropped. Markup needs
/// nothing here: the node never passes `espeakSSML` nor `espeakPHONEMES`, so `<speak>` and `[[…]]`
/// are read as the words they are (tested in SpeechSynthesizerTests).
public enum SpeechText {
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isControl(scalar) {
                scalars.append(scalar)
            } else if scalar == "\n" || scalar == "\r" || scalar == "\t" || scalar == "\u{0B}" || scalar == "\u{0C}" || scalar == "\u{85}" {
                scalars.append(" ")
            }
        }
        return String(scalars)
    }

    /// General category Cc: U+0000–U+001F, U+007F, U+0080–U+009F.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
