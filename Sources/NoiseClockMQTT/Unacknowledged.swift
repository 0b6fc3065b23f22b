/// QoS 1 non-retained publications handed to libmosquitto and not yet acknowledged (PUBACK), by
/// message id, oldest first. libmosquitto re-sends them itself after a reconnect; a new client
/// id needs a re-initialised handle, which drops them, so they go back to the outbox instead.
struct Unacknowledged<Message: Sendable>: Sendable {
    private(set) var items: [(id: Int32, message: Message)] = []
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    mutating func sent(_ id: Int32, _ message: Message) {
        // Ids wrap at 65535: an id in use again means the old one's PUBACK was lost with its connection.
        items.removeAll { $0.id == id }
        if items.count >= limit { items.removeFirst() }
        items.append((id, message))
    }

    mutating func acknowledged(_ id: Int32) {
        if let index = items.firstIndex(where: { $0.id == id }) { items.remove(at: index) }
    }

    /// Everything still unacknowledged, oldest first; afterwards none.
    mutating func takeAll() -> [Message] {
        defer { items.removeAll() }
        return items.map(\.message)
    }
}
