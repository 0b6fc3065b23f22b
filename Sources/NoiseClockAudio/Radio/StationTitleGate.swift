/// The titles a station's player hands on (to `~/noise`, the face, Home Assistant): a new one at
/// most every `StreamFormatLimits.secondsBetweenTitles`, the latest winning (one that comes
/// sooner waits, and a later one replaces it), each cut to `titleScalars` Unicode scalars; the
/// same title again is no news. `icy-metaint` 256 with a new title after each block made 20,500
/// retained `~/noise` in 10 s. Used by the player's thread alone; `tick` hands on a waiting title
/// once its time has come (called as the stream's bytes arrive).
final class StationTitleGate {
    private let deliver: (String?) -> Void
    private let now: () -> Double
    private var lastSentAt: Double?
    private var last: String??
    private var waiting: String??

    init(now: @escaping () -> Double = Clocks.monotonicSeconds, deliver: @escaping (String?) -> Void) {
        self.now = now
        self.deliver = deliver
    }

    func offer(_ title: String?) {
        let cut = title.map { String(String.UnicodeScalarView($0.unicodeScalars.prefix(StreamFormatLimits.titleScalars))) }
        waiting = last.map { $0 == cut } == true ? nil : .some(cut)
        tick()
    }

    func tick() {
        guard let title = waiting else { return }
        let time = now()
        if let lastSentAt, time - lastSentAt < StreamFormatLimits.secondsBetweenTitles { return }
        lastSentAt = time
        last = .some(title)
        waiting = nil
        deliver(title)
    }
}
