import Synchronization

/// A bounded queue from one producer thread to one consumer thread that never waits, locks or
/// allocates on either side: the slots are allocated once, and `head`/`tail` are atomics. Made
/// for the audio thread, which hands values (reports, sources to release) to a thread that may
/// wait; `push` fails when the ring is full rather than wait.
///
/// One producer and one consumer at a time: the owner says which threads those are.
public final class SingleProducerRing<Element>: @unchecked Sendable {
    // @unchecked Sendable: a slot is written by the producer only while it is free (before `tail`
    // moves past it, a releasing store) and read by the consumer only after (an acquiring load);
    // `head` gives it back the same way. `Element` crosses threads: the owner hands over only
    // values it no longer touches (a source the audio thread let go of, a report it made).
    private let slots: UnsafeMutablePointer<Element?>
    public let capacity: Int
    /// The next slot to read (the consumer's).
    private let head = Atomic<Int>(0)
    /// The next slot to write (the producer's).
    private let tail = Atomic<Int>(0)

    public init(capacity: Int) {
        precondition(capacity > 0)
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
    }

    /// The producer's side: false (and `element` not taken) when the ring is full.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        let tail = tail.load(ordering: .relaxed)
        let head = head.load(ordering: .acquiring)
        guard tail - head < capacity else { return false }
        slots[tail % capacity] = element
        self.tail.store(tail + 1, ordering: .releasing)
        return true
    }

    /// The consumer's side: the oldest element, or nil when the ring is empty.
    public func pop() -> Element? {
        let head = head.load(ordering: .relaxed)
        guard head < tail.load(ordering: .acquiring) else { return nil }
        let element = slots[head % capacity].take()
        self.head.store(head + 1, ordering: .releasing)
        return element
    }

    /// Free slots as the producer sees them.
    public var space: Int { capacity - (tail.load(ordering: .relaxed) - head.load(ordering: .acquiring)) }
}
