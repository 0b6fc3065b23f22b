/// What the button adapters tell the machine (`NodeInput.button`).
public enum ButtonInput: Sendable, Equatable {
    /// A local button made a gesture (the reader's detector decided which).
    case gesture(button: String, ButtonGesture)
    /// Learn mode: a key of a local device went down.
    case learned(InputKey)
    /// A local device was opened, or is missing (with why).
    case device(path: String, ButtonBoard.DeviceStatus)
}

extension ButtonBoard {
    public static let learnSeconds = 30.0
}
