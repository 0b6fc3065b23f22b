/// Ogg's page checksum (CRC-32, polynomial 0x04C11DB7, not reflected, initial 0), written into
/// every complete page of a body, so a mutated page still passes libogg's check.
enum OggCRC {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 { value = value & 0x8000_0000 != 0 ? (value << 1) ^ 0x04C1_1DB7 : value << 1 }
        return value
    }

    /// Each `OggS` whose header and body fit in `bytes` gets its CRC field recomputed.
    static func fix(_ bytes: inout [UInt8]) {
        var start = 0
        while start + 27 <= bytes.count {
            guard bytes[start] == 0x4F, bytes[start + 1] == 0x67, bytes[start + 2] == 0x67, bytes[start + 3] == 0x53 else {
                start += 1
                continue
            }
            let segments = Int(bytes[start + 26])
            guard start + 27 + segments <= bytes.count else { return }
            let bodyLength = bytes[(start + 27)..<(start + 27 + segments)].reduce(0) { $0 + Int($1) }
            let end = start + 27 + segments + bodyLength
            guard end <= bytes.count else { return }
            for index in 22..<26 { bytes[start + index] = 0 }
            var crc: UInt32 = 0
            for byte in bytes[start..<end] { crc = (crc << 8) ^ table[Int((crc >> 24) ^ UInt32(byte))] }
            for index in 0..<4 { bytes[start + 22 + index] = UInt8(truncatingIfNeeded: crc >> (8 * index)) }
            start = end
        }
    }
}
