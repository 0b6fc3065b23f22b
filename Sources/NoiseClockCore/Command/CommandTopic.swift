/// Every command the contract defines: the feature that owns it and which of its commands. The
/// topic (below `~/` or `{base}/all/`) is the feature command's raw value, so each feature keeps
/// its own commands in its own folder and this enum only gathers them: the core's features
/// (`FeatureID`), then the voice, the buttons, the bridged devices and safe mode, whose commands
/// the core answers with effects for the machine (`NodeCore.dispatch`).
public enum CommandTopic: Sendable, Hashable, CaseIterable, RawRepresentable {
    case alarms(AlarmCommand)
    case style(StyleCommand)
    case noise(NoiseCommand)
    case routines(RoutineCommand)
    case timers(TimerCommand)
    case mixes(MixCommand)
    case light(LightCommand)
    case stations(StationCommand)
    case voice(VoiceCommand)
    case buttons(ButtonsCommand)
    case devices(DevicesCommand)
    case safeMode(SafeModeCommand)

    /// Every command, feature by feature (in `FeatureID` order), then the voice's, the buttons',
    /// the devices' and safe mode's.
    public static let allCases: [CommandTopic] = FeatureID.allCases.flatMap(\.commands) + VoiceCommand.allCases.map(voice)
        + ButtonsCommand.allCases.map(buttons) + DevicesCommand.allCases.map(devices) + SafeModeCommand.allCases.map(safeMode)

    private static let byTopic: [String: CommandTopic] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The command for a topic suffix (`alarm/add`); nil for a topic no feature declares.
    public init?(rawValue: String) {
        guard let topic = Self.byTopic[rawValue] else { return nil }
        self = topic
    }

    public var rawValue: String {
        switch self {
        case .alarms(let command): command.rawValue
        case .style(let command): command.rawValue
        case .noise(let command): command.rawValue
        case .routines(let command): command.rawValue
        case .timers(let command): command.rawValue
        case .mixes(let command): command.rawValue
        case .light(let command): command.rawValue
        case .stations(let command): command.rawValue
        case .voice(let command): command.rawValue
        case .buttons(let command): command.rawValue
        case .devices(let command): command.rawValue
        case .safeMode(let command): command.rawValue
        }
    }

    /// Whether the payload is free text, in which only `{` starts JSON (`say`).
    public var takesFreeText: Bool {
        if case .voice(let command) = self { command.takesFreeText } else { false }
    }
}

extension FeatureID {
    /// The feature's commands, as `CommandTopic`s.
    public var commands: [CommandTopic] {
        switch self {
        case .alarms: AlarmCommand.allCases.map(CommandTopic.alarms)
        case .style: StyleCommand.allCases.map(CommandTopic.style)
        case .noise: NoiseCommand.allCases.map(CommandTopic.noise)
        case .routines: RoutineCommand.allCases.map(CommandTopic.routines)
        case .timers: TimerCommand.allCases.map(CommandTopic.timers)
        case .mixes: MixCommand.allCases.map(CommandTopic.mixes)
        case .light: LightCommand.allCases.map(CommandTopic.light)
        case .stations: StationCommand.allCases.map(CommandTopic.stations)
        }
    }
}
