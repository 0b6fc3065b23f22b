import CStream

/// One Ogg Vorbis logical stream's packets (three headers, then audio) through libvorbis, out as
/// interleaved floats. Its comment header's title goes out like an ICY title.
final class VorbisPacketDecoder: OggPacketDecoder {
    private let codecs: noiseclock_codecs
    private let info = UnsafeMutablePointer<vorbis_info>.allocate(capacity: 1)
    private let comment = UnsafeMutablePointer<vorbis_comment>.allocate(capacity: 1)
    private let dsp = UnsafeMutablePointer<vorbis_dsp_state>.allocate(capacity: 1)
    private let block = UnsafeMutablePointer<vorbis_block>.allocate(capacity: 1)
    private var headers = 0
    /// `dsp` and `block` were set up (the third header read and accepted), so the deinit clears them.
    private var synthesising = false
    private var interleaved: [Float] = []
    let codec = "vorbis"
    private(set) var sampleRate = 0
    private(set) var channels = 0

    init(codecs: noiseclock_codecs) {
        self.codecs = codecs
        codecs.vorbis_info_init(info)
        codecs.vorbis_comment_init(comment)
    }

    deinit {
        if synthesising {
            _ = codecs.vorbis_block_clear(block)
            codecs.vorbis_dsp_clear(dsp)
        }
        codecs.vorbis_comment_clear(comment)
        codecs.vorbis_info_clear(info)
        info.deallocate()
        comment.deallocate()
        dsp.deallocate()
        block.deallocate()
    }

    func packet(_ packet: UnsafeMutablePointer<ogg_packet>, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        if headers < 3 {
            guard codecs.vorbis_synthesis_headerin(info, comment, packet) == 0 else { return false }
            headers += 1
            if headers == 2, packet.pointee.bytes > 7 {
                // "\x03vorbis" then the comment block.
                title(VorbisComment.title(UnsafeRawBufferPointer(start: packet.pointee.packet + 7, count: packet.pointee.bytes - 7)))
            }
            if headers == 3 {
                // Told before anything is sized by it (255 channels, 1 Hz): not this stream. A refused
                // setup clears itself; `block` was never set up: nothing to clear for either.
                guard StreamFormatLimits.problem(sampleRate: info.pointee.rate, channels: Int(info.pointee.channels)) == nil,
                      codecs.vorbis_synthesis_init(dsp, info) == 0 else { return false }
                _ = codecs.vorbis_block_init(dsp, block)
                synthesising = true
                sampleRate = info.pointee.rate
                channels = Int(info.pointee.channels)
            }
            return true
        }
        guard synthesising else { return false }
        if codecs.vorbis_synthesis(block, packet) == 0 { _ = codecs.vorbis_synthesis_blockin(dsp, block) }
        var pcm: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>?
        while true {
            let count = Int(codecs.vorbis_synthesis_pcmout(dsp, &pcm))
            guard count > 0, let pcm else { break }
            interleaved.removeAll(keepingCapacity: true)
            for frame in 0..<count {
                for channel in 0..<channels { interleaved.append(pcm[channel]?[frame] ?? 0) }
            }
            interleaved.withUnsafeBufferPointer { frames($0, channels) }
            _ = codecs.vorbis_synthesis_read(dsp, Int32(count))
        }
        return true
    }
}
