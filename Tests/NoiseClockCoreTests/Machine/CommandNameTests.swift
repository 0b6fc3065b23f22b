import Testing
@testable import NoiseClockCore

/// `CommandName`: the two tables (the features', the web app's) as one typed name, and a button's
/// action as a typed command rather than a topic string.
@Suite struct CommandNameTests {
    @Test func everyTopicOfBothTablesRoundTripsAndNoneIsInBoth() {
        for topic in CommandTopic.allCases {
            #expect(CommandName(rawValue: topic.rawValue) == .feature(topic))
        }
        for command in WebCommand.allCases {
            #expect(CommandName(rawValue: command.rawValue) == .web(command), "\(command.rawValue) is in an earlier table")
        }
        #expect(CommandName(rawValue: "alarm/explode") == nil)
        #expect(CommandName(rawValue: "") == nil)
        #expect(CommandName(rawValue: "Alarm/Snooze") == nil)
    }

    /// The web app's own commands, and only they, have no MQTT topic, each saying why; all are
    /// taken over HTTP; `restart`, the only one answered before its work, ends the table.
    @Test func onlyTheWebAppsCommandsAreKeptOffMQTT() {
        for command in CommandName.allCases {
            let web = if case .web = command { true } else { false }
            #expect((command.notOverMQTT != nil) == web, "\(command.rawValue)")
            #expect(command.notOverHTTP == nil, "\(command.rawValue)")
        }
        #expect(CommandName.allCases.last == .web(.restart))
        #expect(WebCommand.allCases.filter(\.answeredBeforeItsWork) == [.restart])
        // Over a topic (or handed to the machine), a web app's command is refused, saying where it is taken.
        for command in WebCommand.allCases {
            guard case .refused(let refusal) = CommandMessage.parse(topic: command.rawValue, payload: Array(#"{"request_id": 3}"#.utf8)) else {
                Issue.record("\(command.rawValue) taken from a topic")
                continue
            }
            #expect(refusal.requestID == 3 && refusal.json["error"]?["code"] == "unknown_command")
            #expect(refusal.json["error"]?["message"]?.stringValue?.contains("POST /api/\(command.rawValue) only") == true, "\(refusal.json)")
        }
        // A button's `command:` action runs a feature's topic only (as the configuration checks): never a web app's command.
        let idle = ButtonSituation(ringing: false, noiseVolume: 0, routines: RoutinePlanSummary(active: false, next: nil))
        #expect(ButtonAction.command("restart", payload: "").command(in: idle) == nil)
    }

    /// The node's command subscriptions come from the table, in one place: every command with an
    /// MQTT topic, under `~/` and `{base}/all/` (the voice's and the buttons' included: `say` and `buttons/learn`
    /// were once subscribed by their adapters, `station/test`, `devices/test` and `safe_mode/exit`
    /// by a list in `NodeApplication`, under `~/` only), and no web app's command.
    @Test func theNodeSubscribesToEveryMQTTCommandOfTheTable() {
        let subscribed = TopicScheme(base: "noiseclock", nodeID: "bed").commandSubscriptions
        for command in CommandName.allCases {
            for topic in ["noiseclock/bed/\(command.rawValue)", "noiseclock/all/\(command.rawValue)"] {
                #expect(subscribed.contains(topic) == (command.notOverMQTT == nil), "\(topic)")
            }
        }
        #expect(subscribed.count == Set(subscribed).count && subscribed.allSatisfy { !$0.contains("+") && !$0.contains("#") })
    }

    @Test func buttonActionsAreTypedCommands() {
        let idle = ButtonSituation(ringing: false, noiseVolume: 95, routines: RoutinePlanSummary(active: false, next: "bed"))
        let ringing = ButtonSituation(ringing: true, noiseVolume: 5, routines: RoutinePlanSummary(active: true, next: "bed"))
        #expect(ButtonAction.snoozeOrSpeak.command(in: idle)! == (.feature(.voice(.speakTime)), ""))
        #expect(ButtonAction.snoozeOrSpeak.command(in: ringing)! == (.feature(.alarms(.snooze)), ""))
        #expect(ButtonAction.volumeUp.command(in: idle)! == (.feature(.noise(.setVolume)), "100"))
        #expect(ButtonAction.volumeDown.command(in: ringing)! == (.feature(.noise(.setVolume)), "0"))
        #expect(ButtonAction.routineToggle.command(in: idle)! == (.feature(.routines(.start)), "bed"))
        #expect(ButtonAction.routineToggle.command(in: ringing)! == (.feature(.routines(.stop)), ""))
        let none = ButtonSituation(ringing: false, noiseVolume: 0, routines: RoutinePlanSummary(active: false, next: nil))
        #expect(ButtonAction.routineToggle.command(in: none)! == (.feature(.routines(.start)), ""))
        #expect(ButtonAction.timer("nap").command(in: idle)! == (.feature(.timers(.start)), #"{"preset":"nap"}"#))
        #expect(ButtonAction.command("noise/sound/set", payload: "pink").command(in: idle)! == (.feature(.noise(.setSound)), "pink"))
        #expect(ButtonAction.speakNextAlarm.command(in: idle)! == (.feature(.voice(.speakNextAlarm)), ""))
        #expect(ButtonAction.none.command(in: idle) == nil)
    }
}
