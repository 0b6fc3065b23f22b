/// One `struct input_event` as a Linux input device (or anything imitating one) yields it.
public struct InputEvent: Sendable, Equatable {
    /// `EV_KEY`: a key or button changed (the only type buttons use; `EV_SYN`, `EV_MSC` pass by).
    public static let keyType: UInt16 = 1

    public var type: UInt16
    public var code: UInt16
    /// For keys: 0 up, 1 down, 2 auto-repeat.
    public var value: Int32

    public init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type
        self.code = code
        self.value = value
    }

    /// The record's size on 64-bit Linux: `struct timeval` (16), type (2), code (2), value (4).
    public static let recordSize = 24

    /// Reads one record (native little-endian, as the kernel writes it); the time is not used:
    /// gestures are timed by the reader's own monotonic clock when a record arrives.
    public init(record bytes: some Collection<UInt8>) {
        precondition(bytes.count == InputEvent.recordSize, "an input_event record is \(InputEvent.recordSize) bytes")
        let b = Array(bytes)
        type = UInt16(b[16]) | UInt16(b[17]) << 8
        code = UInt16(b[18]) | UInt16(b[19]) << 8
        value = Int32(bitPattern: UInt32(b[20]) | UInt32(b[21]) << 8 | UInt32(b[22]) << 16 | UInt32(b[23]) << 24)
    }

    /// The record's bytes with a zero time (for tests and tools that feed a reader).
    public var record: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 16)
        bytes += [UInt8(truncatingIfNeeded: type), UInt8(truncatingIfNeeded: type >> 8)]
        bytes += [UInt8(truncatingIfNeeded: code), UInt8(truncatingIfNeeded: code >> 8)]
        let raw = UInt32(bitPattern: value)
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: raw >> (8 * $0)) }
        return bytes
    }

    public static func key(_ key: InputKey, _ value: Int32) -> InputEvent {
        InputEvent(type: keyType, code: key.code, value: value)
    }
}
