/// The clock style as a node feature: `style/set` and `style/preset`, the retained `~/style`,
/// the random colour's change each minute, and the `style` state file.
///
/// Random colour: while `random_color` is on, `~/style` (and every command's result) carries the
/// current minute's `RandomDigitColor` as `digit_color`; the user's own `digit_color` is kept
/// in `style`, persisted, and shown again when random is turned off. The random pick is part of
/// this value (so it changes when `advance` crosses a minute, and the node's before/after
/// comparison of `retained` publishes it) but never part of `persistent` (so no file write).
public struct StyleFeature: Sendable, Equatable {
    /// The colour shown under random colour, and the minute (since the epoch) it belongs to.
    public struct RandomPick: Sendable, Equatable {
        public var minute: Int64
        public var color: RGBColor
    }

    /// The user's style, as stored.
    public private(set) var style: ClockStyle
    /// Present exactly while `style.randomColor` is on.
    public private(set) var randomPick: RandomPick?
    /// An active routine's `face`, shown over the user's style and never stored (v1.2).
    public internal(set) var routineFace: JSONObject?

    /// The format of `style.json` this node writes and reads (docs/reliability.md).
    public static let documentVersion = 1

    /// Restores from the state file `{"version": 1, "style": {...}}`. Never fails: a missing or
    /// unreadable document gives the defaults; a bad field inside gives that field's default.
    public init(restoring document: JSONValue?, now: Instant) {
        if let document, document["version"]?.intValue == Self.documentVersion, let fields = document["style"]?.objectValue {
            style = ClockStyle(lenient: fields)
        } else {
            style = .defaults
        }
        refreshRandomPick(now: now)
    }

    // MARK: What the time publisher needs

    public var use24Hour: Bool { style.use24Hour }
    public var showSeconds: Bool { style.showSeconds }
    public var showAMPM: Bool { style.showAMPM }

    /// The style displays are told about: the user's, with the random colour as `digit_color`
    /// while random colour is on.
    public var displayedStyle: ClockStyle {
        var shown = style
        if let randomPick { shown.digitColor = randomPick.color }
        if let routineFace { shown = (try? shown.merging(routineFace)) ?? shown }
        return shown
    }

    // MARK: The feature pattern

    public typealias Command = StyleCommand

    /// `style/set` (any subset of fields, all or nothing) and `style/preset`. The result is the
    /// style as published.
    public mutating func apply(
        _ command: StyleCommand, _ payload: CommandPayload, context: FeatureContext, output: inout FeatureOutput
    ) throws(CommandError) -> JSONValue {
        switch command {
        case .set: style = try style.merging(payload.object(for: command))
        case .preset: style = try StylePreset(payload: payload).applied(to: style)
        }
        refreshRandomPick(now: context.now)
        return displayedStyle.json
    }

    /// On a new minute under random colour, picks that minute's colour. Nothing else is timed.
    /// `~/style` is retained state: the node publishes it by comparing `retained` before and after.
    public mutating func advance(context: FeatureContext, outbox: inout [Publication]) {
        refreshRandomPick(now: context.now)
    }

    /// The next minute boundary while random colour is on (now, if the pick is already stale).
    public func nextDeadline(context: FeatureContext) -> Instant? {
        guard style.randomColor else { return nil }
        if randomPick?.minute != RandomDigitColor.minuteIndex(of: context.now) { return context.now }
        return context.now.nextBoundary(every: 60)
    }

    public func retained(context: FeatureContext) -> [Publication] {
        [Publication(topic: "style", body: .json(displayedStyle.json), retain: true, qos: 1)]
    }

    /// `{"version": 1, "style": {...}}` with the user's own colours (never the random pick).
    public var persistent: JSONValue? {
        ["version": .int(Int64(Self.documentVersion)), "style": .object(style.fieldsJSON)]
    }

    private mutating func refreshRandomPick(now: Instant) {
        guard style.randomColor else {
            randomPick = nil
            return
        }
        let minute = RandomDigitColor.minuteIndex(of: now)
        let color = RandomDigitColor.color(minute: minute, background: style.backgroundColor)
        let pick = RandomPick(minute: minute, color: color)
        if pick != randomPick { randomPick = pick }
    }
}
