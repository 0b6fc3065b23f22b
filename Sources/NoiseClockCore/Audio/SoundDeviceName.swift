/// A sound device as the node accepts it (http-api.md v1.4, "Tighter values"): a name, never a
/// definition. An ALSA device string is a small language: `file:'/path'`, `tee:…` or an inline
/// `{type file …}` make ALSA write a file (or run a program through a plugin), so only two forms
/// pass: a plain PCM name (`default`, `null`, a PCM the machine's ALSA configuration defines:
/// letters, digits, `_`, `-`, `.`) or one of the card plugins below with plain arguments
/// (`hw:0,0`, `plughw:CARD=USB,DEV=0`, `sysdefault:CARD=x`). No quote, brace, colon in the
/// arguments, slash or space: nothing that could name a path or define a plugin.
public enum SoundDeviceName {
    /// The plugins that only ever address a card (none of them writes a file or runs a program).
    public static let cardPlugins: Set<String> = ["hw", "plughw", "default", "sysdefault", "front", "dmix", "iec958", "hdmi"]
    public static let maximumBytes = 256

    /// Why `name` is not accepted as a sound device (nil: it is).
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "must not be empty" }
        guard name.utf8.count <= maximumBytes else { return "must be an ALSA device name of at most \(maximumBytes) bytes" }
        let parts = name.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let plain = parts[0].unicodeScalars.allSatisfy(isNameCharacter)
        if parts.count == 1, plain { return nil }
        if parts.count == 2, plain, cardPlugins.contains(String(parts[0])), !parts[1].isEmpty,
           parts[1].unicodeScalars.allSatisfy({ isNameCharacter($0) || $0 == "=" || $0 == "," }) {
            return nil
        }
        let shown = String(name.unicodeScalars.prefix(80).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return "must be a PCM name (letters, digits, _ - .) or \(cardPlugins.sorted().joined(separator: "|")):<args> "
            + "(hw:0,0, plughw:CARD=x,DEV=0), not a definition: a sound device never writes a file; got \"\(shown)\""
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".": true
        default: false
        }
    }
}
