/// Every stream decoder as the player, the probe and HLS get it (`StreamFormat.decoder`): the
/// decoder's blocks pass only while their format keeps `StreamFormatLimits` (`StreamFormatCheck`);
/// the first block that breaks it is dropped, and `feed` says false (`undecodable`). The check runs
/// before a block reaches the resampler, which a header saying 1 Hz made allocate 800 MB.
final class BoundedStreamDecoder: StreamDecoder {
    let decoder: any StreamDecoder
    private var check = StreamFormatCheck()

    init(_ decoder: any StreamDecoder) { self.decoder = decoder }

    var codec: String { decoder.codec }
    var sampleRate: Int { decoder.sampleRate }
    var channels: Int { decoder.channels }
    /// Why the stream was ended, nil while its format keeps the bounds.
    var breach: String? { check.breach }

    func feed(_ bytes: UnsafeRawBufferPointer, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        guard check.breach == nil else { return false }
        let ok = decoder.feed(bytes, frames: { samples, channels in
            guard channels > 0, check.admit(frames: samples.count / channels, rate: decoder.sampleRate, channels: channels) else { return }
            frames(samples, channels)
        }, title: title)
        return ok && check.breach == nil
    }
}
