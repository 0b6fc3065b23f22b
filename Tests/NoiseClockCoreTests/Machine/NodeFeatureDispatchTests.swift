import Testing
@testable import NoiseClockCore

/// Every command reaches the feature that owns it, and every feature keeps its own file.
@Suite struct NodeFeatureDispatchTests {
    @Test(arguments: CommandTopic.allCases)
    func everyCommandIsAnsweredByItsFeatureNotRefusedAsUnknown(topic: CommandTopic) {
        var core = NodeCore(settings: NodeSettings(nodeID: "t", locale: .en, zone: MachineRig.zone), catalog: MachineRig.catalog,
            now: Instant(seconds: 0))
        var outbox: [Publication] = []
        var effects: [FeatureEffect] = []  // `alarm/check` asks for a readiness check
        let response = core.handle(CommandMessage(topic: topic, payload: .empty), now: Instant(seconds: 0), outbox: &outbox, effects: &effects)
        if case .failure(let error) = response.outcome {
            #expect(error.code != .unknownCommand, "\(topic.rawValue) fell through: \(error.message)")
        }
        #expect(response.command == topic.rawValue)
    }

    @Test func eachFeatureOwnsOneStateFile() {
        let core = NodeCore(settings: NodeSettings(nodeID: "t", locale: .en, zone: MachineRig.zone), now: Instant(seconds: 0))
        #expect(Set(core.persistentState().keys) == Set(NodeCore.stateFileNames))
        #expect(FeatureID.allCases.compactMap { type(of: core.feature($0)).stateFile }.sorted() == NodeCore.stateFileNames.sorted())
    }
}

/// The topics come from the features' own command enums: each parses back to its command, and
/// no two commands claim one topic.
@Suite struct CommandTopicTests {
    @Test(arguments: CommandTopic.allCases)
    func aTopicParsesBackToItsCommand(topic: CommandTopic) {
        #expect(CommandTopic(rawValue: topic.rawValue) == topic)
    }

    @Test func everyFeatureCommandIsListedOnce() {
        #expect(Set(CommandTopic.allCases).count == CommandTopic.allCases.count)
        let others = VoiceCommand.allCases.count + ButtonsCommand.allCases.count + DevicesCommand.allCases.count + SafeModeCommand.allCases.count
        #expect(CommandTopic.allCases.count == FeatureID.allCases.map(\.commands.count).reduce(0, +) + others)
        #expect(CommandTopic(rawValue: "alarm/explode") == nil)
    }
}
