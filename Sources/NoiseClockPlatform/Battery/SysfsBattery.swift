#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import NoiseClockCore

/// Reads the node's battery from Linux's power-supply class (`/sys/class/power_supply`).
///
/// The battery is the first supply, by directory name, whose `type` is `Battery` — skipping
/// peripherals (`scope` = `Device`, e.g. a wireless mouse) and empty bays (`present` = 0).
/// Its level is `capacity`, else `energy_now`/`energy_full`, else `charge_now`/`charge_full`;
/// its `status` maps Charging/Discharging/Full/Not charging, and Unknown as not charging.
/// A machine with mains supplies only (or none) reads as `BatteryReading.absent`.
///
/// Never throws or traps: an unreadable or garbage file reads as absent, and is logged once
/// per file and kind of problem for the life of this value (the node polls every few seconds).
public struct SysfsBattery: Sendable {
    public let path: String
    private let logger: Logger
    private var reported: Set<String> = []

    /// - Parameters:
    ///   - path: `battery.path`, the power-supply class directory.
    ///   - logger: where problems are reported (once each).
    public init(path: String = "/sys/class/power_supply", logger: Logger = Logger(label: "noiseclock.battery")) {
        self.path = path
        self.logger = logger
    }

    /// The battery as it is now.
    public mutating func read() -> BatteryReading {
        var problems: [SysfsProblem] = []
        let reading = Self.reading(at: path, problems: &problems)
        for problem in problems where reported.insert(problem.key).inserted {
            logger.warning(
                "battery: \(problem.message); reading the battery as not present",
                metadata: ["file": .string(problem.file)]
            )
        }
        return reading
    }

    /// The reading, collecting problems instead of logging them: a pure function of the tree.
    static func reading(at path: String, problems: inout [SysfsProblem]) -> BatteryReading {
        guard let names = FileBytes.directoryEntries(path) else {
            problems.append(SysfsProblem(file: path, kind: "unreadable", message: "cannot list \(path)"))
            return .absent
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let supply = path + "/" + name
            switch SysfsFiles.contents(of: supply + "/type") {
            case .missing: continue
            case .failed(let reason):
                problems.append(SysfsProblem(file: supply + "/type", kind: "unreadable", message: "cannot read \(supply)/type: \(reason)"))
                continue
            case .text(let type):
                guard type == "Battery" else { continue }
            }
            if case .text("Device") = SysfsFiles.contents(of: supply + "/scope") { continue }
            if case .text("0") = SysfsFiles.contents(of: supply + "/present") { continue }
            return battery(at: supply, problems: &problems)
        }
        return .absent
    }

    private static func battery(at supply: String, problems: inout [SysfsProblem]) -> BatteryReading {
        do throws(SysfsProblem) {
            let level = try level(at: supply)
            let status = try status(at: supply)
            return BatteryReading(level: level, status: status)
        } catch {
            problems.append(error)
            return .absent
        }
    }

    private static func level(at supply: String) throws(SysfsProblem) -> Int {
        if let capacity = try number(supply + "/capacity") { return capacity }
        for (now, full) in [("energy_now", "energy_full"), ("charge_now", "charge_full")] {
            guard let current = try number(supply + "/" + now), let total = try number(supply + "/" + full) else { continue }
            guard total > 0 else {
                throw SysfsProblem(file: supply + "/" + full, kind: "garbage", message: "\(supply)/\(full) is 0")
            }
            return Int((current.multipliedReportingOverflow(by: 100).partialValue + total / 2) / total)
        }
        throw SysfsProblem(
            file: supply, kind: "no-level",
            message: "\(supply) has none of capacity, energy_now/energy_full, charge_now/charge_full"
        )
    }

    private static func status(at supply: String) throws(SysfsProblem) -> BatteryReading.Status {
        let file = supply + "/status"
        switch SysfsFiles.contents(of: file) {
        case .missing: throw SysfsProblem(file: file, kind: "unreadable", message: "\(file) is missing")
        case .failed(let reason): throw SysfsProblem(file: file, kind: "unreadable", message: "cannot read \(file): \(reason)")
        case .text(let text):
            switch text.lowercased() {
            case "charging": return .charging
            case "discharging": return .discharging
            case "full": return .full
            case "not charging", "unknown": return .notCharging
            default: throw SysfsProblem(file: file, kind: "garbage", message: "\(file) holds \"\(text.prefix(40))\", not a status")
            }
        }
    }

    /// A non-negative integer file; nil when the file does not exist.
    private static func number(_ file: String) throws(SysfsProblem) -> Int? {
        switch SysfsFiles.contents(of: file) {
        case .missing: return nil
        case .failed(let reason): throw SysfsProblem(file: file, kind: "unreadable", message: "cannot read \(file): \(reason)")
        case .text(let text):
            guard let value = Int(text), value >= 0 else {
                throw SysfsProblem(file: file, kind: "garbage", message: "\(file) holds \"\(text.prefix(40))\", not a number")
            }
            return value
        }
    }
}
