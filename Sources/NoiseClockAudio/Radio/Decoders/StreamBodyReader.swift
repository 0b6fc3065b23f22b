/// What a response's body turns out to be, told from its type and first bytes, and its decoder
/// once it is audio: a known audio type is decoded at once; anything else is looked at first (up
/// to 4 KB, or the whole of a shorter body): an m3u/pls playlist to follow, an HLS playlist, or
/// audio told by its bytes (`StreamFormat.sniff`). Used by one thread (a player's or a probe's).
final class StreamBodyReader {
    enum Verdict: Equatable {
        case reading
        case redirect(String)
        case hls
        case undecodable
    }

    static let lookBytes = 4096
    let contentType: String?
    let library: StreamLibrary
    private(set) var decoder: (any StreamDecoder)?
    private(set) var verdict = Verdict.reading
    private var head: [UInt8] = []

    init(contentType: String?, library: StreamLibrary) {
        self.contentType = contentType
        self.library = library
    }

    /// Feeds the body's bytes. False: stop reading (`verdict` says why).
    func feed(_ bytes: UnsafeRawBufferPointer, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        if let decoder {
            if decoder.feed(bytes, frames: frames, title: title) { return true }
            verdict = .undecodable
            return false
        }
        guard verdict == .reading else { return false }
        head += bytes
        if let format = StreamFormat.from(contentType: contentType) { return start(format, frames: frames, title: title) }
        return head.count < Self.lookBytes || decide(frames: frames, title: title)
    }

    /// The body ended: a shorter one than `lookBytes` is judged now (a playlist is small).
    func finish() {
        if decoder == nil, verdict == .reading, !head.isEmpty { _ = decide(frames: { _, _ in }, title: { _ in }) }
    }

    private func decide(frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        switch StationPlaylist.classify(head: head, contentType: contentType) {
        case .redirect(let next): verdict = .redirect(next)
        case .hls: verdict = .hls
        case .empty: verdict = .undecodable
        case .audio:
            if let format = StreamFormat.sniff(head) { return start(format, frames: frames, title: title) }
            verdict = .undecodable
        }
        return false
    }

    private func start(_ format: StreamFormat, frames: (UnsafeBufferPointer<Float>, Int) -> Void, title: (String?) -> Void) -> Bool {
        guard let made = format.decoder(library: library) else {
            verdict = .undecodable
            return false
        }
        decoder = made
        let bytes = head
        head = []
        return bytes.withUnsafeBytes { feed($0, frames: frames, title: title) }
    }
}
