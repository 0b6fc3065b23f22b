/// The random-colour mode's pick: a pure function of the minute and the background, so every
/// node, test and display can predict it, and a restart within a minute shows the same colour.
public enum RandomDigitColor {
    /// Whole minutes since the epoch (rounded towards the past). Every time zone in use today
    /// has a whole-minute offset, so this changes exactly on local minute boundaries.
    public static func minuteIndex(of instant: Instant) -> Int64 {
        let seconds = instant.seconds
        return seconds >= 0 ? seconds / 60 : (seconds - 59) / 60
    }

    /// A vivid colour for `minute`, readable (contrast ≥ 4.5) against `background`.
    ///
    /// A hash of the minute picks hue (0–359°) and saturation (55–100 %) at full value; if that
    /// is too close to the background it is blended in sixteenths towards white or black,
    /// whichever contrasts more. Pure white or black always reaches ≥ 4.58 against any
    /// background, so the loop always ends with a readable colour.
    public static func color(minute: Int64, background: RGBColor) -> RGBColor {
        let hash = splitMix64(UInt64(bitPattern: minute))
        let hue = Double(hash % 360)
        let saturation = 0.55 + Double((hash >> 16) % 46) / 100
        let vivid = hsvColor(hue: hue, saturation: saturation)
        let target: RGBColor =
            RGBColor.white.contrastRatio(against: background) >= RGBColor.black.contrastRatio(against: background)
            ? .white : .black
        for step in 0...16 {
            let candidate = blend(vivid, target, fraction: Double(step) / 16)
            if candidate.contrastRatio(against: background) >= ClockStyle.minimumContrast { return candidate }
        }
        return target
    }

    /// SplitMix64's finaliser: a well-mixed 64-bit hash of consecutive integers.
    static func splitMix64(_ seed: UInt64) -> UInt64 {
        var z = seed &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// HSV with value 1 to sRGB.
    static func hsvColor(hue: Double, saturation: Double) -> RGBColor {
        let sector = hue / 60
        let chroma = saturation
        let secondary = chroma * (1 - abs(sector.truncatingRemainder(dividingBy: 2) - 1))
        let floor = 1 - chroma
        let (r, g, b): (Double, Double, Double) =
            switch Int(sector) {
            case 0: (chroma, secondary, 0)
            case 1: (secondary, chroma, 0)
            case 2: (0, chroma, secondary)
            case 3: (0, secondary, chroma)
            case 4: (secondary, 0, chroma)
            default: (chroma, 0, secondary)
            }
        return RGBColor(red: channel(r + floor), green: channel(g + floor), blue: channel(b + floor))
    }

    static func blend(_ from: RGBColor, _ to: RGBColor, fraction: Double) -> RGBColor {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { channel((Double(a) + (Double(b) - Double(a)) * fraction) / 255) }
        return RGBColor(red: mix(from.red, to.red), green: mix(from.green, to.green), blue: mix(from.blue, to.blue))
    }

    private static func channel(_ unit: Double) -> UInt8 { UInt8(min(max(unit, 0), 1) * 255 + 0.5) }
}
