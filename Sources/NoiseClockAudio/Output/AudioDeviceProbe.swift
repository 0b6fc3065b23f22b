import CALSA
import CALSASilence
#if canImport(Glibc)
import Glibc
#endif

/// Opens the sound device with the node's format (S16_LE stereo at its rate) without writing to
/// it, closes it, and reads its mixer: the readiness check's device part (on the audio thread)
/// and `noiseclock doctor`'s.
public enum AudioDeviceProbe {
    /// What the decisive playback control of the device's mixer says.
    public struct Mixer: Sendable, Equatable {
        public var control: String
        /// nil: the control has no switch.
        public var switchedOn: Bool?
        /// 0-100 of the control's range; nil: it has no volume.
        public var volumePercent: Int?
        /// Why nothing would be heard (`output_muted`'s message), or nil.
        public var mutedMessage: String?
    }

    public struct Result: Sendable, Equatable {
        /// Why the device did not open with the node's format (nil: it did).
        public var openError: String?
        /// It did not open because another program holds it.
        public var busy = false
        /// nil: no mixer to read (a PCM not on a card and without a control device of its name).
        public var mixer: Mixer?
    }

    /// `open`: the engine's PCM when it is open already (then it is only asked its card).
    /// `nonBlocking`: a busy device fails at once instead of waiting for its holder to let go.
    static func probe(device: String, sampleRate: Int, open: AlsaPCM? = nil, nonBlocking: Bool = false) -> Result {
        var result = Result()
        var card = open?.card
        if open == nil {
            do {
                let pcm = try AlsaPCM(device: device, sampleRate: sampleRate, nonBlocking: nonBlocking)
                card = pcm.card
                pcm.close()
            } catch {
                result.openError = error.description
                result.busy = error.code == -EBUSY || error.code == -EAGAIN
                return result
            }
        }
        result.mixer = mixer(device: device, card: card)
        return result
    }

    /// The decisive playback control of `device`'s mixer (its card's when it plays on `card`); nil:
    /// no mixer to read.
    public static func mixer(device: String, card: Int32?) -> Mixer? {
        guard let control = AlsaMixerCheck.decisiveControl(mixer: AlsaMixerCheck.mixerName(device: device, card: card)) else { return nil }
        let span = control.maximum - control.minimum
        let volume = control.volumes.max().map { span > 0 ? ($0 - control.minimum) * 100 / span : 100 }
        return Mixer(control: control.name, switchedOn: control.switches.isEmpty ? nil : control.switches.contains(true),
                     volumePercent: volume, mutedMessage: control.mutedMessage)
    }

    /// `noiseclock doctor`'s check: never waits for a busy device.
    public static func probe(device: String, sampleRate: Int) -> Result {
        // ALSA's own messages would go to stderr, between the doctor's lines; its codes say it all.
        noiseclock_alsa_silence_errors()
        return probe(device: device, sampleRate: sampleRate, open: nil, nonBlocking: true)
    }

    /// Plays a 440 Hz tone for `seconds` at about -20 dBFS with 20 ms fades (`noiseclock doctor --play`);
    /// returns when it has played. Throws the device's error.
    public static func playTone(device: String, sampleRate: Int, seconds: Double = 1) throws(ToneFailure) {
        let frames = Int(seconds * Double(sampleRate))
        let fade = max(1, sampleRate / 50)
        var samples = [Int16](repeating: 0, count: frames * 2)
        for frame in 0..<frames {
            let envelope = Double(min(frame, frames - 1 - frame, fade)) / Double(fade)
            let value = Int16(3277 * envelope * sin(2 * Double.pi * 440 * Double(frame) / Double(sampleRate)))
            samples[2 * frame] = value
            samples[2 * frame + 1] = value
        }
        do {
            _ = try AlsaPCM.playOnce(samples, device: device, sampleRate: sampleRate, nonBlocking: false)
        } catch {
            throw ToneFailure(description: error.description)
        }
    }

    public struct ToneFailure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }
}
