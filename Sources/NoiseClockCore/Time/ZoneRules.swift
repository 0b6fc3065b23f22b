/// A time zone's rules: the UTC offset in force at any instant, built from TZif data (with its
/// POSIX footer for the years after the last listed transition), a POSIX TZ string, or a
/// fixed offset.
public struct ZoneRules: Sendable, Equatable {
    public let identifier: String
    private let transitions: [Int64]
    private let offsets: [Int]
    private let initialOffset: Int
    private let rule: PosixTZRule?

    public init(identifier: String, fixedOffset: Int) {
        self.identifier = identifier
        transitions = []
        offsets = []
        initialOffset = fixedOffset
        rule = nil
    }

    public static let utc = ZoneRules(identifier: "UTC", fixedOffset: 0)

    public enum LoadError: Error, Equatable, Sendable, CustomStringConvertible {
        case malformedTZif(String)
        case malformedRule(String)

        public var description: String {
            switch self {
            case .malformedTZif(let message): message
            case .malformedRule(let message): message
            }
        }
    }

    /// Rules from the bytes of a TZif file (`/usr/share/zoneinfo/Europe/Berlin`).
    public init(identifier: String, tzif bytes: [UInt8]) throws(LoadError) {
        let file: TZif
        do { file = try TZif(bytes) } catch { throw .malformedTZif(error.description) }
        var rule: PosixTZRule?
        if let footer = file.footer {
            do { rule = try PosixTZRule(footer) } catch { throw .malformedRule(error.description) }
        }
        self.identifier = identifier
        transitions = file.transitions
        offsets = file.offsets
        initialOffset = file.initialOffset
        self.rule = rule
    }

    /// Rules from a POSIX TZ string alone (`CET-1CEST,M3.5.0,M10.5.0/3`), as in a `TZ` variable.
    public init(identifier: String, posix text: String) throws(LoadError) {
        let rule: PosixTZRule
        do { rule = try PosixTZRule(text) } catch { throw .malformedRule(error.description) }
        self.identifier = identifier
        transitions = []
        offsets = []
        initialOffset = rule.standardOffset
        self.rule = rule
    }

    /// Seconds east of UTC in force at `seconds` since the epoch.
    public func offset(at seconds: Int64) -> Int {
        guard let last = transitions.last else { return rule?.offset(at: seconds) ?? initialOffset }
        if seconds >= last, let rule { return rule.offset(at: seconds) }
        if seconds < transitions[0] { return initialOffset }
        // Last transition at or before `seconds`.
        var low = 0
        var high = transitions.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if transitions[mid] <= seconds { low = mid } else { high = mid - 1 }
        }
        return offsets[low]
    }

    /// The wall-clock reading at `instant`.
    public func local(at instant: Instant) -> LocalDateTime {
        LocalDateTime(localSeconds: instant.seconds + Int64(offset(at: instant.seconds)))
    }

    /// The instants a wall-clock reading names (its weekday is ignored).
    public func resolve(_ local: LocalDateTime) -> LocalResolution {
        let wall = local.localSeconds
        let before = offset(at: wall - 86_400)
        let after = offset(at: wall + 86_400)
        var candidates: [Int64] = []
        for candidate in [before, offset(at: wall), after] {
            let utc = wall - Int64(candidate)
            if offset(at: utc) == candidate, !candidates.contains(utc) { candidates.append(utc) }
        }
        candidates.sort()
        if candidates.count == 1 { return .unique(Instant(seconds: candidates[0])) }
        if candidates.count >= 2 {
            return .overlap(first: Instant(seconds: candidates[0]), second: Instant(seconds: candidates[candidates.count - 1]))
        }
        // A gap: the change happened between the reading taken with the later offset and
        // with the earlier one; find the first second with the new offset.
        var low = wall - Int64(max(before, after)) // still the old offset
        var high = wall - Int64(min(before, after)) // already the new offset
        if offset(at: low) != before { low = high - 86_400 }
        while high - low > 1 {
            let mid = low + (high - low) / 2
            if offset(at: mid) == before { low = mid } else { high = mid }
        }
        return .gap(after: Instant(seconds: high))
    }
}
