/// An opaque sRGB colour with 8-bit channels, as the style's `#RRGGBB` strings describe it.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let white = RGBColor(red: 255, green: 255, blue: 255)
    public static let black = RGBColor(red: 0, green: 0, blue: 0)

    /// Parses `#RGB` or `#RRGGBB`, hex digits in either case. Anything else is nil.
    public init?(hex text: String) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.first == "#", scalars.count == 4 || scalars.count == 7 else { return nil }
        var digits: [UInt8] = []
        for scalar in scalars.dropFirst() {
            guard let digit = Self.hexDigit(scalar) else { return nil }
            digits.append(digit)
        }
        if digits.count == 3 {
            // #ABC is #AABBCC: each digit doubled.
            self.init(red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17)
        } else {
            self.init(red: digits[0] << 4 | digits[1], green: digits[2] << 4 | digits[3], blue: digits[4] << 4 | digits[5])
        }
    }

    /// `#RRGGBB`, upper-case: the one spelling the node stores and publishes.
    public var hex: String {
        "#" + Self.twoDigits(red) + Self.twoDigits(green) + Self.twoDigits(blue)
    }

    public var description: String { hex }

    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 48)
        case "a"..."f": UInt8(scalar.value - 97 + 10)
        case "A"..."F": UInt8(scalar.value - 65 + 10)
        default: nil
        }
    }

    private static func twoDigits(_ value: UInt8) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return value < 16 ? "0" + text : text
    }
}
