/// What a sleeper did with a button.
public enum ButtonGesture: String, Sendable, CaseIterable {
    case press
    case double
    case hold
}
