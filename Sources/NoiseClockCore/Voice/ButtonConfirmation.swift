/// What a button did, said after its command succeeded (`speech.confirm_buttons`), as a native
/// speaker would say it: "Snoozed until 6:54 AM" / "오전 6시 54분에 다시 울립니다". Only for
/// buttons: the same command over MQTT or HTTP is answered on `~/response` and says nothing.
public enum ButtonConfirmation {
    /// The words for `command` (a topic suffix) given its result and the node after it; nil for
    /// the commands that speak themselves (`speak/time`, `speak/next_alarm`, `say`).
    public static func text(command: String, result: JSONValue, after core: NodeCore) -> String? {
        let locale = core.settings.locale
        let en = locale == .en
        switch command {
        case "alarm/snooze":
            guard let until = core.alarms.ring?.snoozeUntil else { return en ? "Snoozed" : "다시 알림을 설정했습니다" }
            let time = SpeechPhrases.clock(core.settings.zone.local(at: until), locale: locale, use24Hour: core.style.style.use24Hour)
            return en ? "Snoozed until \(time)" : "\(time)에 다시 울립니다"
        case "alarm/dismiss":
            return en ? "Alarm off" : "알람을 껐습니다"
        case "noise/set":
            let on = core.noise.state.playing
            return en ? (on ? "Noise on" : "Noise off") : (on ? "백색소음을 켰습니다" : "백색소음을 껐습니다")
        case "noise/volume/set":
            return en ? "Volume \(core.noise.state.volume)" : "볼륨 \(core.noise.state.volume)"
        case "light/set":
            let on = core.light.level.on
            return en ? (on ? "Light on" : "Light off") : (on ? "조명을 켰습니다" : "조명을 껐습니다")
        case "routine/start", "routine/stop":
            let label = result["label"]?.stringValue?.trimmingWhitespace() ?? ""
            let started = command == "routine/start"
            if en { return "\(label.isEmpty ? "Routine" : label) \(started ? "started" : "stopped")" }
            return "\(label.isEmpty ? "" : label + " ")루틴을 \(started ? "시작했습니다" : "멈췄습니다")"
        case "timer/start":
            let seconds = result["seconds"]?.intValue ?? 0
            return en ? "Timer set for \(duration(seconds, .en))" : "\(duration(seconds, .ko)) 타이머를 시작했습니다"
        case "say", "speak/time", "speak/next_alarm":
            return nil
        default:
            return en ? "Done" : "완료했습니다"
        }
    }

    /// "20 minutes", "1 minute 30 seconds", "45 seconds"; "20분", "1분 30초", "45초".
    static func duration(_ seconds: Int, _ locale: NodeLocale) -> String {
        let minutes = seconds / 60, rest = seconds % 60
        switch locale {
        case .en:
            let parts = [
                minutes > 0 ? "\(minutes) minute\(minutes == 1 ? "" : "s")" : nil,
                rest > 0 || minutes == 0 ? "\(rest) second\(rest == 1 ? "" : "s")" : nil,
            ]
            return parts.compactMap { $0 }.joined(separator: " ")
        case .ko:
            return [minutes > 0 ? "\(minutes)분" : nil, rest > 0 || minutes == 0 ? "\(rest)초" : nil].compactMap { $0 }.joined(separator: " ")
        }
    }
}
