/// A sunrise's light as a function of how far it has come (0 at its start, 1 at the alarm):
/// brightness in equal steps to the eye, white from warm to neutral.
public enum SunriseCurve {
    public static let warmKelvin = 2200
    public static let neutralKelvin = 4000

    /// CIE 1976 lightness L* of 1 % luminance: 116·0.01^(1/3) − 16.
    static let startLightness = 8.991_442

    /// Brightness in percent, 1 at the start to 100 at the alarm. L* (lightness as the eye sees
    /// it) rises in a straight line; the lamp's output is the luminance of that lightness.
    public static func brightness(progress: Double) -> Int {
        let p = min(1, max(0, progress))
        let lightness = startLightness + p * (100 - startLightness)
        let f = (lightness + 16) / 116
        return max(1, min(100, Int((f * f * f * 100).rounded())))
    }

    /// Colour temperature, straight in mireds (closer to how the eye sees a change of white
    /// than kelvin), 2200 K to 4000 K.
    public static func kelvin(progress: Double) -> Int {
        let p = min(1, max(0, progress))
        let warm = 1_000_000 / Double(warmKelvin)
        let neutral = 1_000_000 / Double(neutralKelvin)
        return Int((1_000_000 / (warm + p * (neutral - warm))).rounded())
    }

    public static func level(progress: Double) -> LightLevel {
        LightLevel(on: true, brightness: brightness(progress: progress), kelvin: kelvin(progress: progress))
    }
}
