import NoiseClockThreads
import Synchronization

/// A recording played from disk in an endless loop. A thread of its own reads ahead into a
/// bounded ring (`bufferSeconds`); the audio thread only copies out of the ring, so it never
/// waits on the disk and memory stays the same for a minute-long file or a ten-hour one.
///
/// The file is opened (its header read) when the source is made, so a file gone or undecodable
/// by then fails here and the caller can fall back; one that breaks later is seen by the reader
/// (`failed`) and plays silence from then on. Made off the audio thread (`PreparedSources`) and
/// handed to it: Sendable, as every stored property is; the ring still has one consumer at a time.
public final class StreamSource: SoundSource, Sendable {
    /// Read-ahead: two seconds rides out a slow SD card; 750 kB at 48 kHz.
    static let bufferSeconds = 2.0

    /// State shared by the audio thread (or offline renderer) and the reader thread.
    private final class Shared: Sendable {
        let ring: FrameRing
        let stopping = Atomic<Bool>(false)
        let failed = Atomic<Bool>(false)
        /// Wakes the reader early: stop, or (offline) the consumer took frames.
        let readerWake = WakeSignal()
        /// Offline only: the reader wrote frames or gave up.
        let dataReady = WakeSignal()

        init(capacity: Int) { ring = FrameRing(capacity: capacity) }
    }

    private let shared: Shared
    private let thread = DedicatedThread(name: "sound-reader")
    private let waitsForData: Bool

    /// `loudness` nil: the reader measures the file's start before playing (the library's
    /// background measurement replaces that on the next play). `waitsForData`: the offline
    /// renderer's mode, which waits for the disk instead of playing silence.
    init(path: String, outputRate: Int, loudness: Loudness?, waitsForData: Bool = false) throws(SoundFile.Failure) {
        let file = try SoundFile(path: path)
        let reader = try LoopReader(file: file, outputRate: outputRate)
        let capacity = max(Int(Self.bufferSeconds * Double(outputRate)), 2 * reader.maxOutputFrames)
        let shared = Shared(capacity: capacity)
        self.shared = shared
        self.waitsForData = waitsForData
        let refillSeconds = Double(capacity / 4) / Double(outputRate)
        let box = ReaderBox(reader: reader, path: path, loudness: loudness)
        do {
            try thread.start { Self.run(box, shared, refillSeconds: refillSeconds) }
        } catch {
            throw SoundFile.Failure(description: "cannot start the reader thread (\(error))")
        }
        // A new voice's first block: decoding it takes a few milliseconds, and without it the
        // first period would be silence and an alarm from a file would start a period late. This
        // runs where the scene is handed over (`AudioEngine.apply`), never on the audio thread; a
        // slower disk just plays silence first.
        if !waitsForData { shared.dataReady.wait(seconds: Self.firstBlockWait) }
    }

    /// How long making a voice waits for its first block at most.
    static let firstBlockWait = 0.02

    /// Let go of by its owner (the engine's `audio-handoff` thread, never the audio thread): the
    /// reader is told to stop, closes the file on its own thread, and is joined here.
    deinit {
        shared.stopping.store(true, ordering: .releasing)
        shared.readerWake.signal()
        thread.join()
    }

    /// The file stopped being readable while playing.
    public var failed: Bool { shared.failed.load(ordering: .acquiring) }

    /// Waits, woken by the reader, until `frames` are buffered or the file failed (for tests that
    /// play a source in real-time mode faster than real time).
    func waitUntilBuffered(_ frames: Int) {
        while shared.ring.available < frames, !failed { shared.dataReady.wait(seconds: 1) }
    }

    public func render(into out: UnsafeMutablePointer<Float>, frames: Int) {
        var done = shared.ring.read(into: out, count: frames)
        while done < frames, waitsForData, !failed {
            shared.readerWake.signal()
            shared.dataReady.wait(seconds: 1)
            done += shared.ring.read(into: out + 2 * done, count: frames - done)
        }
        if done < frames { (out + 2 * done).update(repeating: 0, count: 2 * (frames - done)) }
        if waitsForData { shared.readerWake.signal() }
    }

    /// Carries the non-Sendable reader to its thread, which alone uses it from then on.
    private final class ReaderBox: @unchecked Sendable {
        let reader: LoopReader
        let path: String
        let loudness: Loudness?
        init(reader: LoopReader, path: String, loudness: Loudness?) {
            self.reader = reader
            self.path = path
            self.loudness = loudness
        }
    }

    private static func run(_ box: ReaderBox, _ shared: Shared, refillSeconds: Double) {
        defer { shared.dataReady.signal() }
        // Unknown loudness: the first minute stands for the whole (~50 ms of decoding here); the
        // library's background measurement gives the exact figure for the next play.
        let loudness = box.loudness
            ?? (try? LoudnessMeter.measure(path: box.path, maxSeconds: 60) { shared.stopping.load(ordering: .relaxed) })
        let gain = loudness?.gain ?? 1
        let ring = shared.ring
        let reader = box.reader
        while !shared.stopping.load(ordering: .acquiring) {
            if ring.space < reader.maxOutputFrames {
                shared.readerWake.wait(seconds: refillSeconds)
                continue
            }
            let ok = reader.next { frames, count in
                var offset = 0
                while offset < count, !shared.stopping.load(ordering: .relaxed) {
                    offset += ring.write(frames + 2 * offset, count: count - offset, gain: gain)
                    if offset < count { shared.readerWake.wait(seconds: refillSeconds) }
                }
            }
            shared.dataReady.signal()
            if !ok {
                shared.failed.store(true, ordering: .releasing)
                return
            }
        }
    }
}
