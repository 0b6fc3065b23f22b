import NoiseClockCore

/// The running node's underruns (mqtt-api v1.4 "Audio underruns"), read from its retained
/// `~/audio`: a count above 0 is a warning, since each was an audible click or gap.
extension Doctor {
    static func underrunCheck(_ payload: [UInt8]?) -> DoctorCheck {
        guard let payload, !payload.isEmpty else {
            return DoctorCheck("underruns", .skipped, "no ~/audio from a running node on the broker")
        }
        guard let count = (try? JSONParser().parse(payload))?["underruns"]?.intValue else {
            return DoctorCheck("underruns", .skipped, "the running node does not count underruns (an older version)")
        }
        guard count > 0 else { return DoctorCheck("underruns", .ok, "no underrun since the node started") }
        return DoctorCheck(
            "underruns", .warning,
            "the sound device ran dry \(count) time\(count == 1 ? "" : "s") since the node started (each an audible click)",
            advice: "the machine is too busy for its sound: look for what takes its CPU (top), or raise the node's priority")
    }
}
