/// Splits a client's byte stream into whole MQTT control packets (fixed header, remaining
/// length, body), so `TCPProxy` can act on a packet the way a broker would.
struct MQTTPacketFramer {
    private var buffer: [UInt8] = []

    /// The packets `bytes` completes, in order; a partial one waits for the next call.
    mutating func append(_ bytes: [UInt8]) -> [[UInt8]] {
        buffer += bytes
        var packets: [[UInt8]] = []
        while let size = Self.packetSize(buffer) {
            packets.append(Array(buffer.prefix(size)))
            buffer.removeFirst(size)
        }
        return packets
    }

    /// The packet type (the fixed header's high nibble): 1 CONNECT, 3 PUBLISH, 8 SUBSCRIBE.
    static func type(_ packet: [UInt8]) -> UInt8 { packet[0] >> 4 }

    /// The client id of a CONNECT packet (MQTT 3.1.1 or 5).
    static func clientID(ofConnect packet: [UInt8]) -> String? {
        guard type(packet) == 1, let (_, headerSize) = remainingLength(packet) else { return nil }
        var at = headerSize
        guard let nameLength = u16(packet, at) else { return nil }
        at += 2 + nameLength  // protocol name
        guard at + 4 <= packet.count else { return nil }
        let level = packet[at]
        at += 4  // level, flags, keep-alive
        if level == 5 {
            guard let (properties, size) = varint(packet, at) else { return nil }
            at += size + properties
        }
        guard let idLength = u16(packet, at), at + 2 + idLength <= packet.count else { return nil }
        return String(decoding: packet[(at + 2)..<(at + 2 + idLength)], as: UTF8.self)
    }

    private static func packetSize(_ bytes: [UInt8]) -> Int? {
        guard let (length, headerSize) = remainingLength(bytes), bytes.count >= headerSize + length else { return nil }
        return headerSize + length
    }

    /// The remaining length and the fixed header's size.
    private static func remainingLength(_ bytes: [UInt8]) -> (Int, Int)? {
        guard let (length, size) = varint(bytes, 1) else { return nil }
        return (length, 1 + size)
    }

    private static func varint(_ bytes: [UInt8], _ start: Int) -> (Int, Int)? {
        var value = 0
        for index in 0..<4 where start + index < bytes.count {
            let byte = bytes[start + index]
            value |= Int(byte & 0x7F) << (7 * index)
            if byte & 0x80 == 0 { return (value, index + 1) }
        }
        return nil
    }

    private static func u16(_ bytes: [UInt8], _ at: Int) -> Int? {
        at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : nil
    }
}
