import NoiseClockThreads
import Synchronization

// What the player thread and the audio thread share: atomics and signals, no lock.
extension StationSource {
    final class Shared: Sendable {
        let ring: FrameRing
        let stopping = Atomic<Bool>(false)
        /// The player's cause (an index into `causes`, -1: `httpStatus`; 0: none): set when a
        /// connection fails, cleared when a connection delivers decoded audio again.
        let cause = Atomic<Int>(0)
        /// An HTTP error's status (`http_<status>`), when `cause` says so.
        let httpStatus = Atomic<Int>(0)
        /// The consumer's cause (`stalled`: the ring dry 5 s; `silent`): cleared by audible audio.
        let renderCause = Atomic<Int>(0)
        let played = Atomic<Bool>(false)
        /// When decoded audio last arrived (monotonic milliseconds): 5 s before now is a stall,
        /// however much the ring still holds.
        let lastDelivery = Atomic<Int>(0)
        let dryFrames = Atomic<Int>(0)
        /// The consumer plays from the ring (else it waits for `primeSeconds` in it).
        let primed = Atomic<Bool>(false)
        /// How far the current run's fade-in has gone (`edgeFrames`: done).
        let fadeIn = Atomic<Int>(0)
        /// Frames rendered since the last audible one (dry, silent or not yet connected).
        let quietFrames = Atomic<Int>(0)
        /// Frames of decoded digital silence in a row.
        let silentFrames = Atomic<Int>(0)
        /// Frames rendered audible in a row.
        let audibleFrames = Atomic<Int>(0)
        let everAudible = Atomic<Bool>(false)
        /// The leveller's gain (`StationLeveller`, Float bits), set by the player.
        let levelGain = Atomic<UInt32>(Float(1).bitPattern)
        /// The gain the audio thread applied last (Float bits; 0 until audio first played).
        let appliedGain = Atomic<UInt32>(0)
        let wake = WakeSignal()
        /// Offline (`waitsForData`): the consumer waits for the player and the player for room,
        /// nothing is dropped, and time is the consumer's.
        let offline: Bool
        /// Offline: the player wrote frames; the consumer took some.
        let delivered = WakeSignal()
        let taken = WakeSignal()
        /// Offline: the last block waited `stallSeconds` for the station in vain.
        let starved = Atomic<Bool>(false)
        /// The player thread's Linux thread id while it runs (0 before it starts and once it has
        /// returned): the tests see it go from /proc within a second of the stop.
        let playerThread = Atomic<Int32>(0)
        /// The player's open sockets: the stop cuts them (`StreamSockets`).
        let sockets = StreamSockets()

        init(capacity: Int, offline: Bool) {
            ring = FrameRing(capacity: capacity, sixteenBit: true)
            self.offline = offline
        }

        func fail(_ cause: String) {
            if cause.hasPrefix("http_"), let status = Int(cause.dropFirst(5)) {
                guard self.cause.compareExchange(expected: 0, desired: -1, ordering: .acquiringAndReleasing).exchanged else { return }
                httpStatus.store(status, ordering: .releasing)
                return
            }
            _ = self.cause.compareExchange(expected: 0, desired: StationSource.index(of: cause), ordering: .acquiringAndReleasing)
        }

        var stopped: Bool { stopping.load(ordering: .relaxed) }
    }
}
