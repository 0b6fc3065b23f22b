import Testing
@testable import NoiseClockCore

/// `CommandName`: the two topic tables (features', machine's) as one typed name, and a button's
/// action as a typed command rather than a topic string.
@Suite struct CommandNameTests {
    @Test func everyTopicOfBothTablesRoundTripsAndNoneIsInBoth() {
        for topic in CommandTopic.allCases {
            #expect(CommandName(rawValue: topic.rawValue) == .feature(topic))
            #expect(MachineCommand(rawValue: topic.rawValue) == nil, "\(topic.rawValue) is in both tables")
        }
        for command in MachineCommand.allCases {
            #expect(CommandName(rawValue: command.rawValue) == .machine(command))
        }
        #expect(CommandName(rawValue: "alarm/explode") == nil)
        #expect(CommandName(rawValue: "") == nil)
        #expect(CommandName(rawValue: "Alarm/Snooze") == nil)
    }

    @Test func buttonActionsAreTypedCommands() {
        let idle = ButtonSituation(ringing: false, noiseVolume: 95, routines: RoutinePlanSummary(active: false, next: "bed"))
        let ringing = ButtonSituation(ringing: true, noiseVolume: 5, routines: RoutinePlanSummary(active: true, next: "bed"))
        #expect(ButtonAction.snoozeOrSpeak.command(in: idle)! == (.machine(.speakTime), ""))
        #expect(ButtonAction.snoozeOrSpeak.command(in: ringing)! == (.feature(.alarms(.snooze)), ""))
        #expect(ButtonAction.volumeUp.command(in: idle)! == (.feature(.noise(.setVolume)), "100"))
        #expect(ButtonAction.volumeDown.command(in: ringing)! == (.feature(.noise(.setVolume)), "0"))
        #expect(ButtonAction.routineToggle.command(in: idle)! == (.feature(.routines(.start)), "bed"))
        #expect(ButtonAction.routineToggle.command(in: ringing)! == (.feature(.routines(.stop)), ""))
        let none = ButtonSituation(ringing: false, noiseVolume: 0, routines: RoutinePlanSummary(active: false, next: nil))
        #expect(ButtonAction.routineToggle.command(in: none)! == (.feature(.routines(.start)), ""))
        #expect(ButtonAction.timer("nap").command(in: idle)! == (.feature(.timers(.start)), #"{"preset":"nap"}"#))
        #expect(ButtonAction.command("noise/sound/set", payload: "pink").command(in: idle)! == (.feature(.noise(.setSound)), "pink"))
        #expect(ButtonAction.speakNextAlarm.command(in: idle)! == (.machine(.speakNextAlarm), ""))
        #expect(ButtonAction.none.command(in: idle) == nil)
    }
}
