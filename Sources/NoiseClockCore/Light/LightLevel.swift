/// What the light shows: on or off, how bright (percent), and a white (kelvin) or a colour.
public struct LightLevel: Sendable, Hashable {
    public var on: Bool
    /// 0–100 %; an `on` light is at least 1 %.
    public var brightness: Int
    public var kelvin: Int?
    public var color: RGBColor?

    public init(on: Bool, brightness: Int, kelvin: Int? = nil, color: RGBColor? = nil) {
        self.on = on
        self.brightness = brightness
        self.kelvin = kelvin
        self.color = color
    }

    public static let off = LightLevel(on: false, brightness: 0)

    /// The colour temperatures the node sends: a warm 2200 K sunrise to a neutral 4000 K; a
    /// command may ask for 1000–10 000 K (bridges clamp to what the lamp can do).
    public static let kelvinRange = 1000...10_000

    /// Kelvin as mireds (10⁶ / K), what both bridges take.
    public static func mireds(_ kelvin: Int) -> Int { (1_000_000 + kelvin / 2) / kelvin }
}
