/// A 16-bit PCM WAV whose header says `rate` and `channels`, written byte by byte (libsndfile
/// would refuse to write most of the hostile ones), with `dataBytes` of a ramp as its samples.
public func pcmWAVBytes(rate: UInt32, channels: UInt16, dataBytes: Int = 16 * 1024) -> [UInt8] {
    func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    func le16(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
    let blockAlign = UInt32(channels) * 2
    var bytes = Array("RIFF".utf8) + le32(UInt32(36 + dataBytes)) + Array("WAVE".utf8)
    bytes += Array("fmt ".utf8) + le32(16) + le16(1) + le16(channels) + le32(rate) + le32(rate &* blockAlign)
    bytes += le16(UInt16(truncatingIfNeeded: blockAlign)) + le16(16)
    bytes += Array("data".utf8) + le32(UInt32(dataBytes)) + (0..<dataBytes).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    return bytes
}
