import NoiseClockCore
#if canImport(Glibc)
import Glibc
#endif

/// The web app's "Play a test chime" (`POST /api/audio/test`, http-api.md v1.3): one second, two
/// notes (E6 then C6, each struck and fading), at volume 30. On the engine's own device it plays
/// through the engine, over whatever plays (`AudioEngine.playChime`); on another device it opens
/// that one itself (`play`), so a device can be tried before it is saved.
public enum AudioChime {
    public static let seconds = 1.0
    public static let volume = 30
    /// The two notes (Hz) and where the second starts (s): the tests listen for them.
    public static let notes: (first: Double, second: Double, at: Double) = (1318.5, 1046.5, 0.45)

    /// Mono, at full scale before the volume: the struck notes' exponential fades.
    public static func samples(sampleRate: Int) -> [Int16] {
        let count = Int(seconds * Double(sampleRate))
        let rate = Double(sampleRate), attack = 0.005
        return (0..<count).map { index in
            let time = Double(index) / rate
            let second = time >= notes.at
            let since = second ? time - notes.at : time
            let envelope = min(1, since / attack) * exp(-since * 4) * min(1, (seconds - time) / 0.02)
            let value = 0.5 * envelope * sin(2 * Double.pi * (second ? notes.second : notes.first) * since)
            return Int16(max(-32767, min(32767, value * 32767)))
        }
    }

    /// What a played chime reports: frames written and the device's mixer (nil: none to read).
    public struct Played: Sendable, Equatable {
        public var frames: Int
        public var mixer: AudioDeviceProbe.Mixer?

        public init(frames: Int, mixer: AudioDeviceProbe.Mixer?) {
            self.frames = frames
            self.mixer = mixer
        }
    }

    /// Plays the chime on `device`, opened here (a busy device fails at once, never waited for),
    /// and returns once it has played. Blocking: call it on a thread of its own.
    public static func play(device: String, sampleRate: Int) throws(ChimeFailure) -> Played {
        let gain = Double(AudioScene.gain(volume: volume))
        let mono = samples(sampleRate: sampleRate)
        var stereo = [Int16](repeating: 0, count: mono.count * 2)
        for (index, sample) in mono.enumerated() {
            let value = Int16(Double(sample) * gain)
            stereo[2 * index] = value
            stereo[2 * index + 1] = value
        }
        let card: Int32?
        do {
            card = try AlsaPCM.playOnce(stereo, device: device, sampleRate: sampleRate, nonBlocking: true)
        } catch {
            throw ChimeFailure(description: error.description)
        }
        return Played(frames: mono.count, mixer: AudioDeviceProbe.mixer(device: device, card: card))
    }
}
