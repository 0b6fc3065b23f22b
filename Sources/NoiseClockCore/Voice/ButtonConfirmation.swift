/// What a button did, said after its command succeeded (`speech.confirm_buttons`), as a native
/// speaker would say it: "Snoozed until 6:54 AM" / "오전 6시 54분에 다시 울립니다". Only for
/// buttons: the same command over MQTT or HTTP is answered on `~/response` and says nothing.
/// A typed fact, made from the typed command and the features' typed state (never from a
/// command's name as a string, nor from its JSON answer), then put into words.
public enum ButtonConfirmation: Sendable, Equatable {
    /// Snoozed, until then (nil: the ring had no snooze time).
    case snoozed(until: Instant?)
    case alarmOff
    case noise(on: Bool)
    case volume(Int)
    case light(on: Bool)
    case routine(label: String, started: Bool)
    case timer(seconds: Int)
    /// Any other command.
    case done

    /// What `command` did, read from the node `before` and `after` it; nil for the commands that
    /// speak themselves (`say`, `speak/time`, `speak/next_alarm`) and for learning buttons.
    public init?(_ command: CommandName, before: NodeCore, after: NodeCore) {
        switch command {
        case .feature(.voice), .feature(.buttons), .feature(.devices), .feature(.safeMode), .web: return nil
        case .feature(.alarms(.snooze)): self = .snoozed(until: after.alarms.ring?.snoozeUntil)
        case .feature(.alarms(.dismiss)): self = .alarmOff
        case .feature(.noise(.set)): self = .noise(on: after.noise.state.playing)
        case .feature(.noise(.setVolume)): self = .volume(after.noise.state.volume)
        case .feature(.light(.set)): self = .light(on: after.light.level.on)
        case .feature(.routines(.start)):
            self = .routine(label: Self.label(after.routines.active?.routine, in: after.routines), started: true)
        case .feature(.routines(.stop)):
            self = .routine(label: Self.label(before.routines.active?.routine, in: after.routines), started: false)
        case .feature(.timers(.start)):
            let started = after.timers.timers.first { timer in !before.timers.timers.contains { $0.id == timer.id } }
            self = .timer(seconds: started?.seconds ?? 0)
        case .feature: self = .done
        }
    }

    /// The routine's label as the list has it now (the active copy's if it is gone), trimmed.
    private static func label(_ routine: Routine?, in routines: RoutinesFeature) -> String {
        guard let routine else { return "" }
        return (routines[routine.id] ?? routine).label.trimmingWhitespace()
    }

    /// The words, in the node's locale and the clock's style.
    public func text(_ context: SpeechContext) -> String {
        let en = context.locale == .en
        switch self {
        case .snoozed(let until):
            guard let until else { return en ? "Snoozed" : "다시 알림을 설정했습니다" }
            let time = context.clock(until)
            return en ? "Snoozed until \(time)" : "\(time)에 다시 울립니다"
        case .alarmOff:
            return en ? "Alarm off" : "알람을 껐습니다"
        case .noise(let on):
            return en ? (on ? "Noise on" : "Noise off") : (on ? "백색소음을 켰습니다" : "백색소음을 껐습니다")
        case .volume(let volume):
            return en ? "Volume \(volume)" : "볼륨 \(volume)"
        case .light(let on):
            return en ? (on ? "Light on" : "Light off") : (on ? "조명을 켰습니다" : "조명을 껐습니다")
        case .routine(let label, let started):
            if en { return "\(label.isEmpty ? "Routine" : label) \(started ? "started" : "stopped")" }
            return "\(label.isEmpty ? "" : label + " ")루틴을 \(started ? "시작했습니다" : "멈췄습니다")"
        case .timer(let seconds):
            return en ? "Timer set for \(Self.duration(seconds, .en))" : "\(Self.duration(seconds, .ko)) 타이머를 시작했습니다"
        case .done:
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
