extension NodeMachine.Draft {
    /// The audio engine's report on a ringing alarm's sound: `sounding` or `failed` goes out.
    mutating func alarmSound(_ report: AlarmSoundReport) {
        var next = core
        var outbox: [Publication] = []
        next.alarmSoundReported(report, now: now, outbox: &outbox)
        switch report.outcome {
        case .audible(let fallback):
            log(fallback ? .warning : .info, fallback ? "alarm sounding (fallback beep)" : "alarm sounding", ["id": report.key.alarmID])
        case .unplayable(let error):
            log(.error, "alarm sound cannot be played", ["id": report.key.alarmID, "error": error])
        case .streamFailed(let cause):
            log(.warning, "alarm's station cannot be heard; ringing the fallback tone", ["id": report.key.alarmID, "cause": cause])
        }
        commit(next, outbox: outbox)
    }
}
