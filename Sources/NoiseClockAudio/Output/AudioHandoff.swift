import CLinux
import NoiseClockCore
import NoiseClockThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the audio thread hands to the `audio-handoff` thread instead of doing it itself.
enum AudioHandoffItem {
    /// A source the mixer let go of (a voice retired, a prepared source not taken): released
    /// there, so its `deinit` (a reader or player thread stopped and joined, buffers freed)
    /// never runs on the audio thread.
    case release(any SoundSource)
    case alarmSound(AlarmSoundReport)
    case outage(StationOutage)
    case underruns(Int)
}

/// The audio thread's one way out that never waits (docs/sounds.md, "The audio thread"):
/// a preallocated single-producer ring (`SingleProducerRing`) it pushes to without a lock or an
/// allocation, read by the `audio-handoff` thread, which does what may wait: it yields reports
/// into the engine's streams (a lock and an allocation each) and releases retired sources (their
/// threads joined there). The audio thread wakes it once per period at most (`wake`, an eventfd
/// write after the device write, never inside the render). Owned by the engine: started and
/// joined with it.
final class AudioHandoff: Sendable {
    /// Far more than a period ever hands over (a few voices, a report or two).
    static let capacity = 256

    private let ring = SingleProducerRing<AudioHandoffItem>(capacity: AudioHandoff.capacity)
    /// Sources let go of by other threads (`apply` trimming what a scene did not need): they are
    /// released here too, never on the loop's thread that applied the scene.
    private let others = Mutex<[PreparedEntry]>([])
    private let pending = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let eventFD: Int32
    private let thread = DedicatedThread(name: "audio-handoff")

    init() {
        eventFD = eventfd(0, Int32(EFD_CLOEXEC))
    }

    deinit { if eventFD >= 0 { close(eventFD) } }

    /// `perform`: what the handoff thread does with a report (a `release` is done by it).
    func start(perform: @escaping @Sendable (AudioHandoffItem) -> Void) throws(ThreadStartError) {
        try thread.start { [self] in run(perform) }
    }

    /// The audio thread's side: never waits, locks or allocates. False when the ring is full
    /// (the caller keeps what it had, or lets it go where it is).
    @discardableResult
    func post(_ item: AudioHandoffItem) -> Bool {
        guard ring.push(item) else { return false }
        pending.store(true, ordering: .releasing)
        return true
    }

    /// The audio thread, after a period's write: wakes the handoff thread if anything was posted.
    func wake() {
        guard pending.exchange(false, ordering: .acquiringAndReleasing) else { return }
        signal()
    }

    /// Any other thread: `sources` released on the handoff thread.
    func release(_ sources: [PreparedEntry]) {
        guard !sources.isEmpty else { return }
        others.withLock { $0.append(contentsOf: sources) }
        signal()
    }

    /// Drains what is left and joins the thread (after the audio thread was joined: nothing more comes).
    func stop() {
        stopping.store(true, ordering: .releasing)
        signal()
        thread.join()
        drain { _ in }
    }

    private func signal() {
        var one: UInt64 = 1
        _ = write(eventFD, &one, 8)
    }

    private func run(_ perform: @Sendable (AudioHandoffItem) -> Void) {
        var count: UInt64 = 0
        while !stopping.load(ordering: .acquiring) {
            drain(perform)
            // Blocks until the audio thread, another thread or `stop` writes the eventfd (without
            // one, the process out of descriptors: a look every 20 ms).
            if eventFD < 0 || (read(eventFD, &count, 8) < 0 && errno != EINTR) { usleep(20_000) }
        }
        drain(perform)
    }

    private func drain(_ perform: (AudioHandoffItem) -> Void) {
        while let item = ring.pop() {
            if case .release = item { continue }
            perform(item)
        }
        let sources = others.withLock { sources in
            defer { sources = [] }
            return sources
        }
        _ = sources
    }
}
