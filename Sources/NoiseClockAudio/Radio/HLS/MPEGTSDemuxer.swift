/// The audio out of an MPEG transport stream, as HLS segments carry it: the PAT names the PMT,
/// the PMT the first audio stream (ADTS AAC, type 0x0F, or MPEG audio, 0x03/0x04), whose PES
/// packets' payload is the elementary stream the decoder reads. One demuxer for a whole HLS
/// session: segments follow each other as one stream. Sections are taken as fitting one packet
/// (every segmenter writes them so).
final class MPEGTSDemuxer {
    static let packetSize = 188
    private var carry: [UInt8] = []
    private var pmtPID: Int?
    private(set) var audioPID: Int?
    private(set) var format: StreamFormat?
    /// Bytes fed without a sync byte where a packet should start: past a few packets, not TS.
    private var lost = 0

    /// Feeds bytes; the audio stream's payload to `audio`. False: this is not a transport stream.
    func feed(_ bytes: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) -> Void) -> Bool {
        carry += bytes
        var offset = 0
        while carry.count - offset >= Self.packetSize {
            guard carry[offset] == 0x47 else {
                offset += 1
                lost += 1
                if lost > 4 * Self.packetSize { return false }
                continue
            }
            lost = 0
            carry.withUnsafeBytes { packet(UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + Self.packetSize)]), audio) }
            offset += Self.packetSize
        }
        carry.removeFirst(offset)
        return true
    }

    private func packet(_ p: UnsafeRawBufferPointer, _ audio: (UnsafeRawBufferPointer) -> Void) {
        let pid = Int(p[1] & 0x1F) << 8 | Int(p[2])
        let unitStart = p[1] & 0x40 != 0
        let adaptation = (p[3] >> 4) & 3
        var start = 4
        if adaptation & 2 != 0 { start += 1 + Int(p[4]) }
        guard adaptation & 1 != 0, start < p.count else { return }
        let payload = UnsafeRawBufferPointer(rebasing: p[start...])
        if pid == 0, unitStart {
            pat(payload)
        } else if pid == pmtPID, unitStart {
            pmt(payload)
        } else if pid == audioPID {
            guard unitStart else { return audio(payload) }
            // A PES header: 00 00 01, stream id, length, two flag bytes, header length, header.
            guard payload.count >= 9, payload[0] == 0, payload[1] == 0, payload[2] == 1 else { return }
            let skip = 9 + Int(payload[8])
            if skip < payload.count { audio(UnsafeRawBufferPointer(rebasing: payload[skip...])) }
        }
    }

    /// A section's bytes after its pointer field, bounded by its length (less the CRC).
    private func section(_ payload: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let at = 1 + Int(payload[0])
        guard payload.count >= at + 3 else { return nil }
        let length = Int(payload[at + 1] & 0x0F) << 8 | Int(payload[at + 2])
        let end = min(payload.count, at + 3 + length - 4)
        return end > at ? UnsafeRawBufferPointer(rebasing: payload[at..<end]) : nil
    }

    private func pat(_ payload: UnsafeRawBufferPointer) {
        guard let table = section(payload), table[0] == 0 else { return }
        var index = 8
        while index + 4 <= table.count {
            let program = Int(table[index]) << 8 | Int(table[index + 1])
            if program != 0 {
                pmtPID = Int(table[index + 2] & 0x1F) << 8 | Int(table[index + 3])
                return
            }
            index += 4
        }
    }

    private func pmt(_ payload: UnsafeRawBufferPointer) {
        guard audioPID == nil, let table = section(payload), table[0] == 2, table.count >= 12 else { return }
        var index = 12 + (Int(table[10] & 0x0F) << 8 | Int(table[11]))
        while index + 5 <= table.count {
            let type = table[index], pid = Int(table[index + 1] & 0x1F) << 8 | Int(table[index + 2])
            let format: StreamFormat? = type == 0x0F ? .aac : type == 0x03 || type == 0x04 ? .mp3 : nil
            if let format {
                audioPID = pid
                self.format = format
                return
            }
            index += 5 + (Int(table[index + 3] & 0x0F) << 8 | Int(table[index + 4]))
        }
    }
}
