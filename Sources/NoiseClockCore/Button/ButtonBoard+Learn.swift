extension ButtonBoard {
    /// `~/buttons/learn`: the seconds every key of every local device is reported for, or why not
    /// (a payload with more than `request_id`, or no button on a local input device).
    func learn(_ payload: CommandPayload) -> Result<Double, CommandError> {
        do throws(CommandError) {
            try MachineCommand.learnButtons.requireEmpty(payload)
        } catch {
            return .failure(error)
        }
        guard hasInputDevices else {
            return .failure(CommandError(.notFound, "no button reads a local input device (buttons[].input): there is nothing to learn from"))
        }
        return .success(Self.learnSeconds)
    }

    /// `~/buttons` when any button is configured (a node without buttons does not publish it).
    public var retainedList: [Publication] { definitions.isEmpty ? [] : [retained] }
}
