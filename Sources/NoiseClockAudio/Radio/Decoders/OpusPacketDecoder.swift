import CStream
import Glibc

/// One Ogg Opus logical stream's packets (OpusHead, OpusTags, then audio) through libopus, at
/// 48 kHz as Opus always decodes; the head's pre-skip dropped and its output gain applied. Mono
/// and stereo (channel mapping family 0), what radio sends; surround is `undecodable`. A track's
/// end is cut where its last granule position says.
final class OpusPacketDecoder: OggPacketDecoder {
    private let codecs: noiseclock_codecs
    private var decoder: OpaquePointer?
    private var headers = 0
    private var preSkip = 0
    /// Samples decoded so far, pre-skip included: the last page's granule position says where the
    /// track ends, so its last packet's padding is cut (a chain's next track follows seamlessly).
    private var position = 0
    private var gain: Float = 1
    /// 120 ms at 48 kHz, stereo: Opus's longest packet.
    private var pcm = [Float](repeating: 0, count: 5760 * 2)
    let codec = "opus"
    let sampleRate = 48_000
    private(set) var channels = 0

    init(codecs: noiseclock_codecs) { self.codecs = codecs }

    deinit { if let decoder { codecs.opus_decoder_destroy(decoder) } }

    func packet(_ packet: UnsafeMutablePointer<ogg_packet>, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        let bytes = UnsafeRawBufferPointer(start: packet.pointee.packet, count: packet.pointee.bytes)
        if headers == 0 {
            guard bytes.count >= 19, bytes.starts(with: "OpusHead".utf8), bytes[18] == 0, (1...2).contains(bytes[9]) else { return false }
            channels = Int(bytes[9])
            preSkip = Int(bytes.loadUnaligned(fromByteOffset: 10, as: UInt16.self).littleEndian)
            gain = powf(10, Float(Int16(bitPattern: bytes.loadUnaligned(fromByteOffset: 16, as: UInt16.self).littleEndian)) / (20 * 256))
            var error: Int32 = 0
            decoder = codecs.opus_decoder_create(48_000, Int32(channels), &error)
            headers = 1
            return decoder != nil && error == OPUS_OK
        }
        if headers == 1 {
            headers = 2
            if bytes.starts(with: "OpusTags".utf8) {
                title(VorbisComment.title(UnsafeRawBufferPointer(rebasing: bytes[8...])))
                return true
            }
        }
        var count = pcm.withUnsafeMutableBufferPointer {
            Int(codecs.opus_decode_float(decoder, packet.pointee.packet, Int32(packet.pointee.bytes), $0.baseAddress, 5760, 0))
        }
        guard count >= 0 else { return false }
        if packet.pointee.e_o_s != 0, packet.pointee.granulepos >= 0 { count = max(0, min(count, Int(packet.pointee.granulepos) - position)) }
        position += count
        let skipped = min(preSkip, count)
        preSkip -= skipped
        guard count > skipped else { return true }
        if gain != 1 { for index in 0..<(count * channels) { pcm[index] *= gain } }
        pcm.withUnsafeBufferPointer { frames(UnsafeBufferPointer(rebasing: $0[(skipped * channels)..<(count * channels)]), channels) }
        return true
    }
}
