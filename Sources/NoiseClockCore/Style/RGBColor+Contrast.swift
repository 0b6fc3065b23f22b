/// WCAG 2.1 relative luminance and contrast ratio. Core has no `pow`, so the sRGB transfer
/// curve's exponent 2.4 is computed as x² · ⁵√(x²) with a Newton iteration (exact to the last bits).
extension RGBColor {
    /// Relative luminance, 0 (black) … 1 (white).
    public var relativeLuminance: Double {
        0.2126 * Self.linear(red) + 0.7152 * Self.linear(green) + 0.0722 * Self.linear(blue)
    }

    /// (L1 + 0.05) / (L2 + 0.05) with L1 the lighter colour: 1 … 21, unrounded.
    public func contrastRatio(against other: RGBColor) -> Double {
        let a = relativeLuminance, b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The contrast ratio rounded to two decimals, as published (`21.0`, `4.48`).
    public func roundedContrastRatio(against other: RGBColor) -> Double {
        (contrastRatio(against: other) * 100).rounded() / 100
    }

    /// One channel, sRGB-decoded to linear light.
    static func linear(_ channel: UInt8) -> Double {
        let c = Double(channel) / 255
        if c <= 0.04045 { return c / 12.92 }
        let x = (c + 0.055) / 1.055
        let square = x * x
        return square * fifthRoot(square)
    }

    /// ⁵√a for a in (0, 1]: Newton's method from above converges monotonically.
    static func fifthRoot(_ a: Double) -> Double {
        var y = 1.0
        for _ in 0..<60 {
            let y4 = (y * y) * (y * y)
            let next = (4 * y + a / y4) / 5
            if next >= y { break }
            y = next
        }
        return y
    }
}
