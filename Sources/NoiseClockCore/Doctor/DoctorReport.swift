/// One finding of `noiseclock doctor`: a one-line verdict and, when something is wrong, what to do.
public struct DoctorCheck: Sendable, Equatable {
    public enum Status: String, Sendable {
        case ok
        /// Works, but deserves a look (not a failure: exit status 0).
        case warning
        case failed
        /// Not checked: not configured, or a check it depends on failed.
        case skipped
    }

    /// Stable name for scripts (`sound_device`, `broker`, ...).
    public var id: String
    public var status: Status
    public var verdict: String
    public var advice: String?

    public init(_ id: String, _ status: Status, _ verdict: String, advice: String? = nil) {
        self.id = id
        self.status = status
        self.verdict = verdict
        self.advice = advice
    }
}

/// Every check in the order run; rendered for a person (`text`) or a script (`json`).
public struct DoctorReport: Sendable, Equatable {
    public var checks: [DoctorCheck]

    public init(checks: [DoctorCheck] = []) {
        self.checks = checks
    }

    /// All is well: nothing failed (warnings and skipped checks do not count). Exit status 0, else 1.
    public var healthy: Bool { !checks.contains { $0.status == .failed } }

    /// `OK      sound_device  ...` lines, the advice under its check, then a summary line.
    public var text: String {
        let width = checks.map(\.id.count).max() ?? 0
        var lines: [String] = []
        for check in checks {
            let status = check.status.rawValue.uppercased()
            let label = status + String(repeating: " ", count: max(1, 8 - status.count))
            lines.append(label + check.id + String(repeating: " ", count: width - check.id.count + 2) + check.verdict)
            if let advice = check.advice { lines.append(String(repeating: " ", count: 8) + "-> " + advice) }
        }
        let failed = checks.filter { $0.status == .failed }.count
        let warned = checks.filter { $0.status == .warning }.count
        lines.append(failed == 0 ? "All is well" + (warned > 0 ? " (\(warned) warning\(warned == 1 ? "" : "s"))." : ".")
                                 : "\(failed) check\(failed == 1 ? "" : "s") failed.")
        return lines.joined(separator: "\n")
    }

    /// `{"ok": bool, "checks": [{"id", "status", "verdict", "advice"}]}`.
    public var json: JSONValue {
        .object(JSONObject([
            ("ok", .bool(healthy)),
            ("checks", .array(checks.map { check in
                .object(JSONObject([
                    ("id", .string(check.id)), ("status", .string(check.status.rawValue)), ("verdict", .string(check.verdict)),
                    ("advice", check.advice.map(JSONValue.string) ?? .null),
                ]))
            })),
        ]))
    }
}
