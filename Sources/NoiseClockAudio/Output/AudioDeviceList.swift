import CALSA
import CALSASilence
#if canImport(Glibc)
import Glibc
#endif

/// The machine's ALSA playback PCMs with their descriptions, as `aplay -L` lists them
/// (`snd_device_name_hint`): `GET /api/audio/devices`, the settings page's device picker.
public enum AudioDeviceList {
    public struct Device: Sendable, Equatable {
        public var name: String
        /// ALSA's description, its lines joined with " · " (nil: the hint has none).
        public var description: String?

        public init(name: String, description: String?) {
            self.name = name
            self.description = description
        }
    }

    /// Every PCM whose hint is for playback (or both ways), in ALSA's order, each name once.
    public static func playback() -> [Device] {
        noiseclock_alsa_silence_errors()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        guard snd_device_name_hint(-1, "pcm", &hints) >= 0, let hints else { return [] }
        defer { snd_device_name_free_hint(hints) }
        var devices: [Device] = []
        var seen: Set<String> = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            guard let name = text(hint, "NAME"), seen.insert(name).inserted else { continue }
            // IOID is "Output", "Input", or absent (both ways).
            if text(hint, "IOID") == "Input" { continue }
            let description = text(hint, "DESC").map { $0.split(separator: "\n").joined(separator: " · ") }
            devices.append(Device(name: name, description: description))
        }
        return devices
    }

    /// One field of a hint (ALSA allocates it; freed here).
    private static func text(_ hint: UnsafeMutableRawPointer, _ field: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, field) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }
}
