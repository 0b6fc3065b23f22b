import NoiseClockCore

/// A source opened off the audio thread and handed to it: a recording (`StreamSource`) or a
/// station (`StationSource`).
protocol PreparedSource: SoundSource, Sendable {
    /// Not worth handing over: a recording that stopped being readable. A station is always taken
    /// (its failure is reported by the mixer, with its cause).
    var unusable: Bool { get }
}

extension StreamSource: PreparedSource {
    var unusable: Bool { failed }
}

extension StationSource: PreparedSource {
    var unusable: Bool { false }
}

/// One source made off the audio thread for a voice: a recording, a station, a built-in sound, a
/// mix of layers, or a station as the noise (under its fallback). What the mixer must know of it
/// is known here, where it is made, so the audio thread never casts: the station it plays.
struct PreparedEntry: @unchecked Sendable {
    // @unchecked Sendable: made on the thread that applies a scene, then handed (through the
    // engine's lock) to the audio thread, which alone uses it from then on.
    let source: any SoundSource
    /// The station the source plays (itself, or the one under a noise's fallback); nil for others.
    let station: StationSource?
    /// A recording that stopped being readable is not taken.
    let recording: StreamSource?
    /// A station wrapped as the noise (`StationNoiseSource`): only a noise voice takes it.
    let asNoise: Bool

    var unusable: Bool { recording?.unusable ?? false }
}

/// Sources opened ahead of the audio thread: `AudioEngine.apply` opens the files a scene's new
/// voices will play (header, reader thread, first block), starts its stations and makes its
/// built-in sounds and mixes before it hands the scene over, and the mixer takes them from here,
/// so the audio thread never opens a file, waits, nor allocates a source.
/// A file that cannot be opened then is simply not here: the alarm rings the fallback.
public struct PreparedSources: Sendable {
    /// Oldest first; a taken source leaves its slot empty. A flat array, not a dictionary: taking
    /// one on the audio thread writes a slot in place, where a dictionary's `modify` accessors
    /// allocate their coroutine frames (counted by `AlsaEngineTests`' allocation test).
    private var slots: [(id: String, entry: PreparedEntry?)] = []
    /// Recordings that failed to open since: the older sources of them are dropped on `add`.
    private var gone: Set<String> = []

    public init() {}

    var isEmpty: Bool { gone.isEmpty && !slots.contains { $0.entry != nil } }

    /// The newest source of `id` still readable, taken out (in place: no allocation). `asNoise`:
    /// a noise voice, which prefers a station already wrapped for it; other voices never take one.
    mutating func take(_ id: String, asNoise: Bool = false) -> PreparedEntry? {
        if let entry = take(id, wrapped: asNoise) { return entry }
        return asNoise ? take(id, wrapped: false) : nil
    }

    private mutating func take(_ id: String, wrapped: Bool) -> PreparedEntry? {
        var index = slots.count
        while index > 0 {
            index -= 1
            guard slots[index].id == id, let entry = slots[index].entry, entry.asNoise == wrapped else { continue }
            slots[index].entry = nil
            if !entry.unusable { return entry }
        }
        return nil
    }

    mutating func append(_ source: StreamSource, for id: String) {
        append(PreparedEntry(source: source, station: nil, recording: source, asNoise: false), for: id)
    }

    mutating func append(_ source: StationSource, for id: String) {
        append(PreparedEntry(source: source, station: source, recording: nil, asNoise: false), for: id)
    }

    mutating func append(_ entry: PreparedEntry, for id: String) {
        slots.append((id, entry))
    }

    /// `id` did not open: older sources of it (opened before it broke) are not played.
    mutating func markGone(_ id: String) {
        slots.removeAll { $0.id == id }
        gone.insert(id)
    }

    /// Takes in `newer`'s sources after these, dropping those of recordings gone since (and
    /// remembering that, for whoever takes these in turn); the dropped are returned, as `trim`'s.
    @discardableResult
    mutating func add(_ newer: PreparedSources) -> [PreparedEntry] {
        var dropped: [PreparedEntry] = []
        if !newer.gone.isEmpty {
            dropped = slots.filter { newer.gone.contains($0.id) }.compactMap(\.entry)
            slots.removeAll { newer.gone.contains($0.id) }
        }
        gone.formUnion(newer.gone)
        slots += newer.slots.filter { $0.entry != nil }
        return dropped
    }

    /// Keeps the newest `counts[id]` sources of each sound (as many as the scene has voices
    /// playing it); the rest are dropped and returned, for the caller to let go of where it may wait.
    @discardableResult
    mutating func trim(to counts: [String: Int]) -> [PreparedEntry] {
        gone = gone.filter { counts[$0] != nil }
        var kept: [String: Int] = [:]
        var dropped: [PreparedEntry] = []
        var keep: [(id: String, entry: PreparedEntry?)] = []
        for slot in slots.reversed() {
            guard let entry = slot.entry else { continue }
            if kept[slot.id, default: 0] < counts[slot.id, default: 0] {
                kept[slot.id, default: 0] += 1
                keep.append(slot)
            } else {
                dropped.append(entry)
            }
        }
        slots = keep.reversed()
        return dropped
    }

    /// Calls `body` with each source left (the mixer hands them to be released off its thread).
    func visitEntries(_ body: (PreparedEntry) -> Void) {
        for slot in slots {
            if let entry = slot.entry { body(entry) }
        }
    }
}
