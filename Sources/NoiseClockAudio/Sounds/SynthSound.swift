/// The generators behind `synth:<name>` sources in `sounds.json`.
enum SynthSound: Sendable, Equatable {
    case white, pink, brown, rain, ocean, fan
    case tone(AlarmTone)

    init?(source: String) {
        guard source.hasPrefix("synth:") else { return nil }
        switch source.dropFirst("synth:".count) {
        case "white": self = .white
        case "pink": self = .pink
        case "brown": self = .brown
        case "rain": self = .rain
        case "ocean": self = .ocean
        case "fan": self = .fan
        case let name:
            guard let tone = AlarmTone(rawValue: String(name)) else { return nil }
            self = .tone(tone)
        }
    }

    func makeSource(sampleRate: Int, seed: UInt64) -> any SoundSource {
        switch self {
        case .white: WhiteNoise(seed: seed)
        case .pink: PinkNoise(seed: seed)
        case .brown: BrownNoise(sampleRate: sampleRate, seed: seed)
        case .rain: RainSound(sampleRate: sampleRate, seed: seed)
        case .ocean: OceanSound(sampleRate: sampleRate, seed: seed)
        case .fan: FanSound(sampleRate: sampleRate, seed: seed)
        case .tone(let tone): ToneSource(tone, sampleRate: sampleRate)
        }
    }
}
