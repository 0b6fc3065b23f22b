import NoiseClockCore

/// A station playing as the noise (sleep radio): after `downSeconds` without audio (it dropped,
/// stalls, or plays digital silence) it fades into `stream.fallback_noise`, and back once the
/// station has been heard again for `backSeconds`. The player reconnects on its own meanwhile.
/// The crossfade is linear (the gains sum to 1), so no step of it is larger than the larger of
/// the two sounds' own; the station's own edges are faded by `StationSource`. Each change is
/// reported (`~/noise` says `error` while the station is down). Made off the audio thread
/// (`SceneVoices.prepare`), then used by it alone: `report` must not wait there (the engine's
/// pushes to `AudioHandoff`'s ring); `farewell` is called by `deinit`, on the thread releasing it.
final class StationNoiseSource: SoundSource {
    static let downSeconds = 10.0
    static let backSeconds = 1.0
    static let fadeSeconds: Float = 2

    let station: StationSource
    let sound: String
    let fallbackID: String?
    private let fallback: (any SoundSource)?
    private let report: @Sendable (StationOutage) -> Void
    private let farewell: @Sendable (StationOutage) -> Void
    private let step: Float
    private let scratch: UnsafeMutablePointer<Float>
    private let maxFrames: Int
    /// 0: the station; 1: the fallback.
    private var mix: Float = 0
    private var down = false

    init(
        station: StationSource, sound: String, fallbackID: String?, fallback: (any SoundSource)?, sampleRate: Int, maxFrames: Int,
        report: @escaping @Sendable (StationOutage) -> Void, farewell: (@Sendable (StationOutage) -> Void)? = nil
    ) {
        self.station = station
        self.sound = sound
        self.fallbackID = fallbackID
        self.fallback = fallback
        self.report = report
        self.farewell = farewell ?? report
        self.maxFrames = maxFrames
        step = 1 / (Self.fadeSeconds * Float(sampleRate))
        scratch = .allocate(capacity: 2 * maxFrames)
    }

    deinit {
        scratch.deallocate()
        // Let go of while down (another sound chosen, the noise stopped): the outage is no longer news.
        if down { farewell(StationOutage(sound: sound, cause: nil)) }
    }

    func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(maxFrames, frames - done)
            renderBlock(into: out + 2 * done, frames: count)
            done += count
        }
    }

    private func renderBlock(into out: UnsafeMutablePointer<Float>, frames: Int) {
        // The station is always rendered: its ring stays live and its silence is measured.
        station.render(into: out, frames: frames)
        if !down, station.quietSeconds >= Self.downSeconds {
            down = true
            report(StationOutage(sound: sound, cause: station.failure ?? "no_audio", fallback: fallbackID))
        } else if down, station.audibleSeconds >= Self.backSeconds {
            down = false
            report(StationOutage(sound: sound, cause: nil))
        }
        let target: Float = down ? 1 : 0
        guard mix != 0 || target != 0 else { return }
        if let fallback {
            fallback.render(into: scratch, frames: frames)
        } else {
            scratch.update(repeating: 0, count: 2 * frames)
        }
        var gain = mix
        for index in 0..<frames {
            gain = abs(target - gain) <= step ? target : gain + (target > gain ? step : -step)
            out[2 * index] = out[2 * index] * (1 - gain) + scratch[2 * index] * gain
            out[2 * index + 1] = out[2 * index + 1] * (1 - gain) + scratch[2 * index + 1] * gain
        }
        mix = gain
    }
}
