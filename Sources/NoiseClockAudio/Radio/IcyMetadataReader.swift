import NoiseClockCore

/// Splits an Icecast/Shoutcast body into its audio and its in-band metadata: with
/// `icy-metaint: N`, after every N bytes of audio comes one length byte L and L × 16 bytes of
/// text (`StreamTitle='Artist - Title';StreamUrl='';`, padded with NULs). Fed the body in any
/// pieces, as it arrives; holds at most one metadata block (4080 bytes). A title is cut at 256
/// Unicode scalars and cleaned of control characters: it goes to `~/noise`, the face and Home
/// Assistant as it is.
struct IcyMetadataReader {
    /// Audio bytes between metadata blocks; nil: the server sends none (all bytes are audio).
    let interval: Int?
    /// Titles are read only with an interval in `StreamFormatLimits.icyTitleIntervals`; outside
    /// it the blocks are still cut out of the audio, unread (no title is worth a core).
    let readsTitles: Bool
    private var untilMetadata: Int
    private var metadataLength: Int?
    private var metadata: [UInt8] = []
    private var metadataTaken = 0

    static let maxTitleScalars = StreamFormatLimits.titleScalars

    init(interval: Int?) {
        // 0 or absurd intervals (over 1 MB of audio between titles) mean no metadata.
        let valid = interval.flatMap { StreamFormatLimits.icyCutIntervals.contains($0) ? $0 : nil }
        self.interval = valid
        readsTitles = valid.map { StreamFormatLimits.icyTitleIntervals.contains($0) } ?? false
        untilMetadata = valid ?? 0
    }

    /// Feeds `bytes`; the audio goes to `audio`, each complete metadata block's title (nil when
    /// the block names none, "" when it names an empty one) to `title`.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) -> Void, title: (String?) -> Void) {
        guard interval != nil else { return audio(bytes) }
        var index = 0
        while index < bytes.count {
            if let length = metadataLength {
                let take = min(length - metadataTaken, bytes.count - index)
                if readsTitles { metadata.append(contentsOf: bytes[index..<(index + take)]) }
                metadataTaken += take
                index += take
                if metadataTaken == length { finishBlock(title) }
            } else if untilMetadata == 0 {
                let length = Int(bytes[index]) * 16
                index += 1
                if length == 0 { untilMetadata = interval! } else { metadataLength = length }
            } else {
                let take = min(untilMetadata, bytes.count - index)
                audio(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                untilMetadata -= take
                index += take
            }
        }
    }

    private mutating func finishBlock(_ title: (String?) -> Void) {
        if readsTitles { title(Self.title(in: metadata)) }
        metadata.removeAll(keepingCapacity: true)
        metadataTaken = 0
        metadataLength = nil
        untilMetadata = interval!
    }

    /// `StreamTitle='…';` of a block: UTF-8 when it is valid, else Latin-1 (what older servers send).
    static func title(in block: [UInt8]) -> String? {
        let key = Array("StreamTitle='".utf8)
        guard let start = block.firstRange(of: key)?.upperBound else { return nil }
        let rest = block[start...]
        // The value ends at `';` (a title may hold a lone quote); at the block's end otherwise.
        let end = rest.firstRange(of: Array("';".utf8))?.lowerBound ?? (rest.firstIndex(of: 0) ?? rest.endIndex)
        let raw = Array(rest[start..<end])
        let text = String(validating: raw, as: UTF8.self) ?? String(raw.map { Character(Unicode.Scalar($0)) })
        let cleaned = text.unicodeScalars.filter { $0.properties.generalCategory != .control }
        return String(String.UnicodeScalarView(cleaned.prefix(maxTitleScalars))).trimmingWhitespace()
    }
}
