import Synchronization

/// A single-producer, single-consumer ring of stereo frames: the disk reader or a station's player
/// writes, the audio thread reads, neither ever waits on a lock. Counters only grow; their
/// difference is the fill. Bounded: its capacity is all the memory a playing file costs beyond
/// its decoder.
///
/// A file's ring keeps floats (a 24-bit recording keeps its depth); a station's keeps 16-bit
/// integers (`sixteenBit`): its decoders give no more (libmpg123 decodes to 16 bits, a lossy
/// stream is 16-bit at best) and its 12 seconds take 2.3 MB instead of 4.6 (docs/sounds.md,
/// "Memory while a station plays"). Two plain loops rather than a generic sample type: the tests'
/// debug builds run this for every sample of every playing node, unspecialised generics too.
final class FrameRing: @unchecked Sendable {
    // @unchecked Sendable: `storage` is written only in [written, read + capacity) by the one
    // producer and read only in [read, written) by the one consumer; the atomics' acquire and
    // release order those accesses.
    let capacity: Int
    let sixteenBit: Bool
    private let storage: UnsafeMutableRawPointer
    private let written = Atomic<Int>(0)
    private let read = Atomic<Int>(0)

    init(capacity: Int, sixteenBit: Bool = false) {
        self.capacity = capacity
        self.sixteenBit = sixteenBit
        let bytes = sixteenBit ? MemoryLayout<Int16>.stride : MemoryLayout<Float>.stride
        storage = .allocate(byteCount: capacity * 2 * bytes, alignment: MemoryLayout<Float>.alignment)
    }

    deinit { storage.deallocate() }

    /// Frames ready for the consumer.
    var available: Int { written.load(ordering: .acquiring) - read.load(ordering: .relaxed) }
    /// Room for the producer.
    var space: Int { capacity - (written.load(ordering: .relaxed) - read.load(ordering: .acquiring)) }

    /// Producer: appends up to `count` frames; returns how many fitted. Into 16 bits toward zero
    /// (what was below one step, digital silence to `StationSource`, stays 0), clipped past full
    /// scale (a resampler's rare overshoot).
    @discardableResult
    func write(_ frames: UnsafePointer<Float>, count: Int, gain: Float = 1) -> Int {
        let start = written.load(ordering: .relaxed)
        let n = min(count, capacity - (start - read.load(ordering: .acquiring)))
        // At most two runs, up to the ring's end and from its start: no division or branch per
        // frame (a `%` each frame was a third of the player's own work, callgrind 2026-11-29).
        let slot = start % capacity
        let first = min(n, capacity - slot)
        store(frames, into: slot, count: first, gain: gain)
        store(frames + 2 * first, into: 0, count: n - first, gain: gain)
        written.store(start &+ n, ordering: .releasing)
        return n
    }

    /// `count` frames into the slots from `slot` on (no wrap inside).
    @inline(__always)
    private func store(_ frames: UnsafePointer<Float>, into slot: Int, count: Int, gain: Float) {
        guard count > 0 else { return }
        if sixteenBit {
            let ring = storage.assumingMemoryBound(to: Int16.self) + 2 * slot
            // Eight samples abreast (a branch per sample kept the compiler from it), then the rest.
            let samples = 2 &* count, whole = samples / 8
            let raw = UnsafeRawPointer(frames), out = UnsafeMutableRawPointer(ring)
            for i in 0..<whole {
                let v = raw.loadUnaligned(fromByteOffset: 32 &* i, as: SIMD8<Float>.self)
                out.storeBytes(of: Self.sixteenBits(v, gain: gain), toByteOffset: 16 &* i, as: SIMD8<Int16>.self)
            }
            for i in (8 &* whole)..<samples { ring[i] = Self.sixteenBits(frames[i] * gain) }
        } else {
            let ring = storage.assumingMemoryBound(to: Float.self) + 2 * slot
            for i in 0..<(2 &* count) { ring[i] = frames[i] * gain }
        }
    }

    /// `sixteenBits` of eight samples at once: the same steps, clips and NaN rule. Swift's
    /// float-to-integer conversion checks each lane's range and does not vectorise, so the steps
    /// are made in floats: adding and taking away 1.5 × 2²³ rounds to the nearest whole number,
    /// a step back toward zero where that went past, and the sum's low bits are the integer.
    @inline(__always)
    private static func sixteenBits(_ samples: SIMD8<Float>, gain: Float) -> SIMD8<Int16> {
        var value = samples * gain * 32767
        value.replace(with: 0, where: value .!= value)
        value.replace(with: 32767, where: value .>= 32767)
        value.replace(with: -32767, where: value .<= -32767)
        let magic = SIMD8<Float>(repeating: 12_582_912)
        var whole = (value + magic) - magic
        whole.replace(with: whole - 1, where: (whole .> value) .& (value .>= 0))
        whole.replace(with: whole + 1, where: (whole .< value) .& (value .< 0))
        return SIMD8<Int16>(truncatingIfNeeded: unsafeBitCast(whole + magic, to: SIMD8<Int32>.self) &- 0x4B40_0000)
    }

    /// −1…1 to 16-bit steps toward zero; past full scale clipped; NaN (a broken decode) 0, never a trap.
    @inline(__always)
    private static func sixteenBits(_ sample: Float) -> Int16 {
        let value = sample * 32767
        if value >= 32767 { return 32767 }
        if value <= -32767 { return -32767 }
        return value.isNaN ? 0 : Int16(value)
    }

    /// Consumer: takes up to `count` frames; returns how many there were.
    func read(into out: UnsafeMutablePointer<Float>, count: Int) -> Int {
        let start = read.load(ordering: .relaxed)
        let n = min(count, written.load(ordering: .acquiring) - start)
        let slot = start % capacity
        let first = min(n, capacity - slot)
        load(from: slot, into: out, count: first)
        load(from: 0, into: out + 2 * first, count: n - first)
        read.store(start &+ n, ordering: .releasing)
        return n
    }

    /// `count` frames from the slots from `slot` on (no wrap inside).
    @inline(__always)
    private func load(from slot: Int, into out: UnsafeMutablePointer<Float>, count: Int) {
        guard count > 0 else { return }
        if sixteenBit {
            let ring = storage.assumingMemoryBound(to: Int16.self) + 2 * slot
            let scale: Float = 1.0 / 32767
            for i in 0..<(2 &* count) { out[i] = Float(ring[i]) * scale }
        } else {
            (out).update(from: storage.assumingMemoryBound(to: Float.self) + 2 * slot, count: 2 * count)
        }
    }
}
