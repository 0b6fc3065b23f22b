/// Whether the next alarm will be heard, as `~/alarm` `ready` says: checked ahead of time so a
/// muted mixer or an unsynchronised clock is seen the evening before, not at the ring.
public struct AlarmReadiness: Sendable, Equatable {
    public var checkedAt: Instant
    public var problems: [ReadinessProblem]

    public init(checkedAt: Instant, problems: [ReadinessProblem]) {
        self.checkedAt = checkedAt
        self.problems = problems
    }

    public var ok: Bool { problems.isEmpty }

    /// `{"ok", "checked_at", "problems": [{"code", "message"}]}`.
    public func json(zone: ZoneRules) -> JSONValue {
        .object(JSONObject([
            ("ok", .bool(ok)),
            ("checked_at", .string(ISO8601.string(checkedAt, in: zone))),
            ("problems", .array(problems.map(\.json))),
        ]))
    }
}

/// One reason the next alarm might not be heard.
public struct ReadinessProblem: Sendable, Equatable {
    public enum Code: String, Sendable, CaseIterable {
        /// The sound device cannot be opened.
        case audioUnavailable = "audio_unavailable"
        /// The ALSA mixer's playback control is switched off or at 0.
        case outputMuted = "output_muted"
        /// The next alarm's sound cannot be played (its file gone, unreadable or undecodable).
        case soundUnplayable = "sound_unplayable"
        /// The kernel's clock has not been synchronised: the alarm may ring at the wrong time.
        case clockNotSynced = "clock_not_synced"
        /// The lamp (`devices.light`) did not answer within 5 s the last time it was sent a command.
        case lightUnconfirmed = "light_unconfirmed"
        /// The bed shaker's plug did not confirm within 5 s the last time it was started.
        case shakerUnconfirmed = "shaker_unconfirmed"
        /// The next alarm's station (due within 12 h) could not be heard when probed (v1.3, Radio).
        case streamUnreachable = "stream_unreachable"
        /// The node crashed at its last starts and runs in safe mode (v1.4): only built-in sounds ring.
        case safeMode = "safe_mode"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var json: JSONValue { ["code": .string(code.rawValue), "message": .string(message)] }
}

/// What the node asks its adapters to look at: the sound device and the next alarm's sound.
public struct ReadinessProbe: Sendable, Equatable {
    /// The next alarm's sound id; nil when no alarm is due or its sound is `none`.
    public var sound: String?
    /// The next alarm's station's address, when its sound is a station and it is due within 12 h:
    /// connected to and decoded for a second (`StationProbe`).
    public var stationURL: String?
    /// v1.4: that station's id and its directory id, when it has one: a station that fails is
    /// looked up again in the directory (`StationHeal`).
    public var stationID: String?
    public var directoryID: String?

    public init(sound: String?, stationURL: String? = nil, stationID: String? = nil, directoryID: String? = nil) {
        self.sound = sound
        self.stationURL = stationURL
        self.stationID = stationID
        self.directoryID = directoryID
    }
}

/// What the adapters found (`NodeInput.readiness`): each nil when fine.
public struct ReadinessReport: Sendable, Equatable {
    /// The device could not be opened.
    public var deviceError: String?
    /// The device opened but its mixer is off or at 0.
    public var muted: String?
    /// The probed sound could not be made.
    public var soundError: String?
    /// The kernel's clock synchronisation as read during the check (nil: cannot be told).
    public var clockSynced: Bool?
    /// The station's probe failed: its cause (`dns`, `refused`, …).
    public var streamCause: String?
    /// v1.4: the station failed, and the directory's new address for it played (`streamCause` is nil then).
    public var healed: StationHeal?

    public init(deviceError: String? = nil, muted: String? = nil, soundError: String? = nil, clockSynced: Bool? = nil, streamCause: String? = nil) {
        self.deviceError = deviceError
        self.muted = muted
        self.soundError = soundError
        self.clockSynced = clockSynced
        self.streamCause = streamCause
    }

    /// The problems, in the contract's order of codes.
    public var problems: [ReadinessProblem] {
        var out: [ReadinessProblem] = []
        if let deviceError { out.append(ReadinessProblem(.audioUnavailable, "the sound device cannot be opened: \(deviceError)")) }
        if let muted { out.append(ReadinessProblem(.outputMuted, muted)) }
        if let soundError { out.append(ReadinessProblem(.soundUnplayable, soundError)) }
        if let streamCause {
            out.append(ReadinessProblem(.streamUnreachable,
                "the alarm's station cannot be heard now (\(streamCause)); if it is still down at the ring, the fallback tone will ring"))
        }
        if clockSynced == false {
            out.append(ReadinessProblem(.clockNotSynced, "the system clock has not been synchronised (NTP): the alarm may ring at the wrong time"))
        }
        return out
    }
}

/// The `~/alarm/event` events a readiness check publishes.
public enum ReadinessEvent: String, Sendable, CaseIterable {
    /// A problem no `at_risk` has named yet for the next alarm (`ReadinessWarnings`).
    case atRisk = "at_risk"
    /// No problem left after an `at_risk`.
    case ready
}
