import CStream

/// One Ogg logical stream's codec: its packets in, floats and titles out.
protocol OggPacketDecoder: AnyObject {
    var codec: String { get }
    var sampleRate: Int { get }
    var channels: Int { get }
    func packet(_ packet: UnsafeMutablePointer<ogg_packet>, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool
}

/// An Ogg stream (Icecast's `audio/ogg`) split into pages and packets by libogg, each logical
/// stream's packets to its codec: Vorbis, Opus or FLAC, told by the first packet. A live station
/// is a chain: each new track starts a new logical stream (a BOS page) with its own headers, and
/// so its own title; Icecast sends a new listener the current headers first. Streams of other
/// kinds (a Skeleton, a video) are passed over.
final class OggStreamDecoder: StreamDecoder {
    private let codecs: noiseclock_codecs
    private let sync = UnsafeMutablePointer<ogg_sync_state>.allocate(capacity: 1)
    private let stream = UnsafeMutablePointer<ogg_stream_state>.allocate(capacity: 1)
    private var serial: Int32?
    private var current: (any OggPacketDecoder)?
    /// Bytes seen with no page found: past this it is not Ogg.
    private var unsynced = 0

    var codec: String { current?.codec ?? "ogg" }
    var sampleRate: Int { current?.sampleRate ?? 0 }
    var channels: Int { current?.channels ?? 0 }

    init(codecs: CodecLibrary) {
        self.codecs = codecs.table
        _ = self.codecs.ogg_sync_init(sync)
    }

    deinit {
        if serial != nil { _ = codecs.ogg_stream_clear(stream) }
        _ = codecs.ogg_sync_clear(sync)
        sync.deallocate()
        stream.deallocate()
    }

    func feed(_ bytes: UnsafeRawBufferPointer, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        guard let buffer = codecs.ogg_sync_buffer(sync, bytes.count) else { return false }
        if let base = bytes.baseAddress { buffer.update(from: base.assumingMemoryBound(to: CChar.self), count: bytes.count) }
        _ = codecs.ogg_sync_wrote(sync, bytes.count)
        var page = ogg_page()
        var packet = ogg_packet()
        unsynced += bytes.count
        while true {
            let result = codecs.ogg_sync_pageout(sync, &page)
            if result == 0 { break }
            if result < 0 { continue }  // skipped bytes to the next page
            unsynced = 0
            let pageSerial = codecs.ogg_page_serialno(&page)
            if codecs.ogg_page_bos(&page) != 0 {
                // A new logical stream (the chain's next track, or a stream beside the audio): its
                // page holds just its identification packet; only audio this decoder knows is taken.
                guard let made = decoder(for: UnsafeRawBufferPointer(start: page.body, count: page.body_len)) else { continue }
                if serial != nil { _ = codecs.ogg_stream_clear(stream) }
                _ = codecs.ogg_stream_init(stream, pageSerial)
                serial = pageSerial
                current = made
            } else if pageSerial != serial {
                continue
            }
            _ = codecs.ogg_stream_pagein(stream, &page)
            while codecs.ogg_stream_packetout(stream, &packet) == 1 {
                guard current?.packet(&packet, frames: frames, title: title) ?? false else { return false }
            }
        }
        return unsynced < 256 * 1024
    }

    /// The codec by its identification packet.
    private func decoder(for bytes: UnsafeRawBufferPointer) -> (any OggPacketDecoder)? {
        if bytes.count >= 7, bytes[0] == 1, bytes[1...6].elementsEqual("vorbis".utf8) { return VorbisPacketDecoder(codecs: codecs) }
        if bytes.starts(with: "OpusHead".utf8) { return OpusPacketDecoder(codecs: codecs) }
        if bytes.count >= 13, bytes[0] == 0x7F, bytes[1...4].elementsEqual("FLAC".utf8) { return OggFLACPacketDecoder(codecs: codecs) }
        return nil
    }
}

/// FLAC in Ogg: the first packet holds "fLaC" and STREAMINFO after a 9-byte mapping header, each
/// later packet a metadata block or one frame; together they are a native FLAC stream.
final class OggFLACPacketDecoder: OggPacketDecoder {
    private let flac: FLACStreamDecoder
    private var first = true
    let codec = "flac"
    var sampleRate: Int { flac.sampleRate }
    var channels: Int { flac.channels }

    init(codecs: noiseclock_codecs) { flac = FLACStreamDecoder(table: codecs, wholeFrames: true) }

    func packet(_ packet: UnsafeMutablePointer<ogg_packet>, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        var bytes = UnsafeRawBufferPointer(start: packet.pointee.packet, count: packet.pointee.bytes)
        if first {
            first = false
            // The BOS page is checked whole; its first packet may still be shorter than the mapping header.
            guard bytes.count > 9 else { return false }
            bytes = UnsafeRawBufferPointer(rebasing: bytes[9...])
        } else if bytes.count > 4, bytes[0] & 0x7F == 4 {
            // A VORBIS_COMMENT metadata block: 4-byte block header, then the comment.
            title(VorbisComment.title(UnsafeRawBufferPointer(rebasing: bytes[4...])))
        }
        return flac.feed(bytes, frames: frames, title: title)
    }
}
