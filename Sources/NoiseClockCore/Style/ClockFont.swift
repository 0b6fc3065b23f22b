/// The font choices a display renders the digits with, spelled exactly as the contract does.
public enum FontFamily: String, Sendable, CaseIterable {
    case system
    case sanFrancisco = "san_francisco"
    case monaco
    case courier
}

public enum FontWeight: String, Sendable, CaseIterable {
    case ultraLight = "ultra_light"
    case thin
    case light
    case regular
    case medium
    case semibold
    case bold
    case heavy
    case black
}

public enum FontDesign: String, Sendable, CaseIterable {
    case `default`
    case serif
    case rounded
    case monospaced
}
