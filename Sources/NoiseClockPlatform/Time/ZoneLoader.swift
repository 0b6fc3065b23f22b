#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NoiseClockCore

/// Finds a zone's rules on this machine: an IANA name from `/usr/share/zoneinfo`, or
/// `system` — the `TZ` variable, else `/etc/timezone`, else the `/etc/localtime` link, else UTC.
public struct ZoneLoader: Sendable {
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        case invalidName(String)
        case unknownZone(String)
        case unreadable(String, path: String)
        case malformed(String, reason: String)

        public var description: String {
            switch self {
            case .invalidName(let name): "\"\(name)\" is not a time zone name (use an IANA name like Europe/Berlin, or system)"
            case .unknownZone(let name): "unknown time zone \"\(name)\" (no such zone in the tz database)"
            case .unreadable(let name, let path): "time zone \"\(name)\": cannot read \(path)"
            case .malformed(let name, let reason): "time zone \"\(name)\": \(reason)"
            }
        }
    }

    public var zoneinfoDirectory: String
    public var timezoneFile: String
    public var localtimeLink: String
    /// The `TZ` variable's value (nil: unset).
    public var tzVariable: String?

    public init(
        zoneinfoDirectory: String = ZoneLoader.environmentTZDIR() ?? "/usr/share/zoneinfo",
        timezoneFile: String = "/etc/timezone",
        localtimeLink: String = "/etc/localtime",
        tzVariable: String? = ZoneLoader.environmentTZ()
    ) {
        self.zoneinfoDirectory = zoneinfoDirectory
        self.timezoneFile = timezoneFile
        self.localtimeLink = localtimeLink
        self.tzVariable = tzVariable
    }

    /// `system` or an IANA name, with this machine's files.
    public static func load(_ name: String) throws(Error) -> ZoneRules {
        try ZoneLoader().load(name)
    }

    /// `TZDIR`, where the C library also looks for zone files (nil: unset or empty).
    public static func environmentTZDIR() -> String? {
        guard let value = getenv("TZDIR"), value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    public static func environmentTZ() -> String? {
        guard let value = getenv("TZ") else { return nil }
        return String(cString: value)
    }

    public func load(_ name: String) throws(Error) -> ZoneRules {
        let trimmed = name.trimmingWhitespace()
        if trimmed.lowercased() == "system" { return try loadSystem() }
        return try loadNamed(trimmed)
    }

    /// An IANA name such as `Europe/Berlin`; never a path.
    public func loadNamed(_ name: String) throws(Error) -> ZoneRules {
        guard Self.isValidName(name) else { throw .invalidName(name) }
        let path = zoneinfoDirectory + "/" + name
        guard let bytes = FileBytes.contents(of: path) else {
            if name == "UTC" || name == "Etc/UTC" { return ZoneRules(identifier: name, fixedOffset: 0) }
            throw FileBytes.exists(path) ? .unreadable(name, path: path) : .unknownZone(name)
        }
        do {
            return try ZoneRules(identifier: name, tzif: bytes)
        } catch {
            throw .malformed(name, reason: error.description)
        }
    }

    public func loadSystem() throws(Error) -> ZoneRules {
        if var tz = tzVariable?.trimmingWhitespace(), !tz.isEmpty {
            if tz.hasPrefix(":") { tz.removeFirst() }
            if let name = Self.nameAfterZoneinfo(tz) { return try loadNamed(name) }
            if Self.isValidName(tz), let zone = try? loadNamed(tz) { return zone }
            if let zone = try? ZoneRules(identifier: tz, posix: tz) { return zone }
            throw .unknownZone(tz)
        }
        if let text = FileBytes.contents(of: timezoneFile).map({ String(decoding: $0, as: UTF8.self) }) {
            let name = text.split(whereSeparator: \.isNewline).first.map { String($0).trimmingWhitespace() } ?? ""
            if !name.isEmpty { return try loadNamed(name) }
        }
        if let target = FileBytes.linkTarget(localtimeLink), let name = Self.nameAfterZoneinfo(target) {
            return try loadNamed(name)
        }
        return .utc
    }

    /// `Europe/Berlin` from `/usr/share/zoneinfo/Europe/Berlin` or `../usr/share/zoneinfo/Europe/Berlin`.
    static func nameAfterZoneinfo(_ path: String) -> String? {
        guard let range = path.firstRange(of: "zoneinfo/") else { return nil }
        var name = String(path[range.upperBound...])
        for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        return name.isEmpty ? nil : name
    }

    /// Letters, digits, `_ - + /`; no `..`, no leading `/`.
    static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 128, !name.hasPrefix("/"), !name.contains("..") else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-+/".unicodeScalars.contains(scalar))
        }
    }
}
