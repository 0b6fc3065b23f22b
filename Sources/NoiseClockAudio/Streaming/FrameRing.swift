import Synchronization

/// A single-producer, single-consumer ring of stereo float frames: the disk reader writes, the
/// audio thread reads, neither ever waits on a lock. Counters only grow; their difference is
/// the fill. Bounded: its capacity is all the memory a playing file costs beyond its decoder.
final class FrameRing: @unchecked Sendable {
    // @unchecked Sendable: `storage` is written only in [written, read + capacity) by the one
    // producer and read only in [read, written) by the one consumer; the atomics' acquire and
    // release order those accesses.
    let capacity: Int
    private let storage: UnsafeMutablePointer<Float>
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity * 2)
    }

    deinit { storage.deallocate() }

    /// Frames ready for the consumer.
    var available: Int { written.load(ordering: .acquiring) - read.load(ordering: .relaxed) }
    /// Room for the producer.
    var space: Int { capacity - (written.load(ordering: .relaxed) - read.load(ordering: .acquiring)) }

    /// Producer: appends up to `count` frames; returns how many fitted.
    @discardableResult
    func write(_ frames: UnsafePointer<Float>, count: Int, gain: Float = 1) -> Int {
        let start = written.load(ordering: .relaxed)
        let n = min(count, capacity - (start - read.load(ordering: .acquiring)))
        for i in 0..<n {
            let slot = (start &+ i) % capacity
            storage[2 &* slot] = frames[2 &* i] * gain
            storage[2 &* slot &+ 1] = frames[2 &* i &+ 1] * gain
        }
        written.store(start &+ n, ordering: .releasing)
        return n
    }

    /// Consumer: takes up to `count` frames; returns how many there were.
    func read(into out: UnsafeMutablePointer<Float>, count: Int) -> Int {
        let start = read.load(ordering: .relaxed)
        let n = min(count, written.load(ordering: .acquiring) - start)
        var slot = start % capacity
        for i in 0..<n {
            out[2 &* i] = storage[2 &* slot]
            out[2 &* i &+ 1] = storage[2 &* slot &+ 1]
            slot &+= 1
            if slot == capacity { slot = 0 }
        }
        read.store(start &+ n, ordering: .releasing)
        return n
    }
}
