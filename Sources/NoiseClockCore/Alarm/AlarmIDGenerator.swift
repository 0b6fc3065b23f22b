/// Alarm ids without OS randomness: UUID v4 text derived from the current instant and a
/// counter kept (and persisted) by the alarms feature, mixed with SplitMix64. The caller
/// retries until the id is not in use, so ids are unique within a node.
public enum AlarmIDGenerator {
    public static func uuid(now: Instant, counter: UInt64) -> String {
        var state = UInt64(bitPattern: now.milliseconds) &+ counter &* 0x9E37_79B9_7F4A_7C15
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let word = splitMix(&state)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40 // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80 // RFC 4122 variant
        let hex = bytes.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
