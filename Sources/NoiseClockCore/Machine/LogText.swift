/// Text bound for the log, made harmless: whatever a payload, a topic or a file name holds, a log
/// line stays one line and no terminal sequence reaches the terminal (issue 31: a newline forged
/// a line, ESC sequences coloured it). Line breaks and tabs are shown as `\n`, `\r`, `\t`; every
/// other control character (C0, DEL, C1) and U+2028/U+2029 as `\u{XX}`. The log handler applies
/// it to every message and metadata value, so no call site has to remember.
public enum LogText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
