/// The parts of a TZif file (RFC 8536) the node uses: transition instants, the offset each one
/// brings in, and the POSIX footer for instants after the last transition. Version 1 files are
/// read from their 32-bit block; version 2+ from the 64-bit block. Leap seconds are ignored.
struct TZif: Sendable {
    var transitions: [Int64]
    /// The offset in force from each transition on (same count as `transitions`).
    var offsets: [Int]
    /// The offset before the first transition (local time type 0).
    var initialOffset: Int
    var footer: String?

    struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        let message: String
        var description: String { "malformed TZif data: \(message)" }
    }

    init(_ bytes: [UInt8]) throws(Error) {
        var reader = ByteReader(bytes: bytes)
        let v1 = try reader.header()
        guard v1.version >= 2 else {
            self = try reader.block(v1, timeSize: 4)
            return
        }
        try reader.skip(v1.blockSize(timeSize: 4))
        let v2 = try reader.header()
        var zone = try reader.block(v2, timeSize: 8)
        zone.footer = reader.footer()
        self = zone
    }
}

private struct Header {
    var version: Int
    var isutcnt: Int, isstdcnt: Int, leapcnt: Int, timecnt: Int, typecnt: Int, charcnt: Int

    func blockSize(timeSize: Int) -> Int {
        timecnt * timeSize + timecnt + typecnt * 6 + charcnt + leapcnt * (timeSize + 4) + isstdcnt + isutcnt
    }
}

private struct ByteReader {
    let bytes: [UInt8]
    var index = 0

    mutating func skip(_ count: Int) throws(TZif.Error) {
        guard count >= 0, index + count <= bytes.count else { throw TZif.Error(message: "truncated") }
        index += count
    }

    mutating func byte() throws(TZif.Error) -> UInt8 {
        guard index < bytes.count else { throw TZif.Error(message: "truncated") }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func int(size: Int) throws(TZif.Error) -> Int64 {
        guard index + size <= bytes.count else { throw TZif.Error(message: "truncated") }
        var value: UInt64 = 0
        for i in 0..<size { value = value << 8 | UInt64(bytes[index + i]) }
        index += size
        // Sign-extend from `size` bytes.
        let shift = UInt64(64 - size * 8)
        return Int64(bitPattern: value << shift) >> Int64(shift)
    }

    mutating func header() throws(TZif.Error) -> Header {
        guard index + 44 <= bytes.count, Array(bytes[index..<index + 4]) == Array("TZif".utf8) else {
            throw TZif.Error(message: "no TZif magic")
        }
        let versionByte = bytes[index + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        index += 20
        var counts: [Int] = []
        for _ in 0..<6 {
            let count = try int(size: 4)
            guard count >= 0, count < 1 << 20 else { throw TZif.Error(message: "implausible count") }
            counts.append(Int(count))
        }
        guard counts[4] >= 1 else { throw TZif.Error(message: "no local time types") }
        return Header(version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2],
                      timecnt: counts[3], typecnt: counts[4], charcnt: counts[5])
    }

    mutating func block(_ header: Header, timeSize: Int) throws(TZif.Error) -> TZif {
        var transitions: [Int64] = []
        transitions.reserveCapacity(header.timecnt)
        for _ in 0..<header.timecnt { transitions.append(try int(size: timeSize)) }
        var typeIndices: [Int] = []
        for _ in 0..<header.timecnt { typeIndices.append(Int(try byte())) }
        var typeOffsets: [Int] = []
        for _ in 0..<header.typecnt {
            typeOffsets.append(Int(try int(size: 4)))
            try skip(2) // isdst, abbreviation index
        }
        try skip(header.charcnt + header.leapcnt * (timeSize + 4) + header.isstdcnt + header.isutcnt)
        guard typeIndices.allSatisfy({ $0 < typeOffsets.count }) else { throw TZif.Error(message: "bad type index") }
        guard zip(transitions, transitions.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw TZif.Error(message: "transitions out of order")
        }
        return TZif(transitions: transitions, offsets: typeIndices.map { typeOffsets[$0] },
                    initialOffset: typeOffsets[0], footer: nil)
    }

    /// `\n<TZ string>\n` after the v2+ block; nil when absent or empty.
    mutating func footer() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { return nil }
        let start = index + 1
        guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")), end > start else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

extension TZif {
    fileprivate init(transitions: [Int64], offsets: [Int], initialOffset: Int, footer: String?) {
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.footer = footer
    }
}
