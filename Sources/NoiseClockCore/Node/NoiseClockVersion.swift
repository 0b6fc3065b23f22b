/// The node software's version, as announced to Home Assistant (`sw_version`).
public enum NoiseClockVersion {
    public static let current = "0.1.0"
}
