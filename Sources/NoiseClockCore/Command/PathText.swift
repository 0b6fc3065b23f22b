/// A path given as text (`audio.sounds_dir`, `state_dir`, a button's input device): a NUL ends
/// the path early for every C call that opens it (the node would open another file than the
/// one shown and saved), and a control character is never part of a path a person means; both
/// are refused, naming the key (http-api.md v1.4, "Tighter values").
public enum PathText {
    /// Why `path` is not accepted (nil: it is).
    public static func problem(_ path: String) -> String? {
        guard let bad = path.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        let name = bad.value == 0 ? "NUL" : "a control character"
        let hex = String(bad.value, radix: 16, uppercase: true)
        return "must not contain \(name) (U+\(String(repeating: "0", count: 4 - hex.count))\(hex)): a path holds none"
    }
}
