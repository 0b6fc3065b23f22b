/// A mono 16-bit PCM WAV file's bytes (what `noiseclock say --output` writes).
public enum SpeechWAV {
    public static func bytes(_ samples: [Int16], sampleRate: Int) -> [UInt8] {
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let data = samples.count * 2
        var bytes = Array("RIFF".utf8) + le32(36 + data) + Array("WAVE".utf8)
        bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(sampleRate) + le32(sampleRate * 2) + le16(2) + le16(16)
        bytes += Array("data".utf8) + le32(data)
        bytes.reserveCapacity(bytes.count + data)
        for sample in samples {
            let raw = UInt16(bitPattern: sample)
            bytes.append(UInt8(truncatingIfNeeded: raw))
            bytes.append(UInt8(truncatingIfNeeded: raw >> 8))
        }
        return bytes
    }
}
