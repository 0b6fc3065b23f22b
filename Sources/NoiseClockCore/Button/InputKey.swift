/// A key of a Linux input device: its code in linux/input-event-codes.h (`KEY_ENTER` is 28).
public struct InputKey: Sendable, Hashable, CustomStringConvertible {
    public let code: UInt16

    public init(code: UInt16) {
        self.code = code
    }

    /// `KEY_ENTER`, `BTN_0`, or the code as a number (`28`); nil for anything else. Names are
    /// the header's, in its case.
    public init?(_ text: String) {
        if let code = InputKey.codes[text] {
            self.code = code
        } else if let number = UInt16(text), number < InputKey.codeLimit {
            self.code = number
        } else {
            return nil
        }
    }

    /// The key's own name (`KEY_ENTER`), or `KEY_<code>` for a code the header does not name.
    public var name: String { InputKey.names[code] ?? "KEY_\(code)" }
    public var description: String { name }

    /// KEY_CNT: codes are below it.
    static let codeLimit: UInt16 = 0x300
    private static let codes: [String: UInt16] = Dictionary(InputKeyNames.table.map { ($0.name, $0.code) }) { first, _ in first }
    /// The first name the header gives each code (later ones are aliases).
    private static let names: [UInt16: String] = Dictionary(InputKeyNames.table.map { ($0.code, $0.name) }) { first, _ in first }
}
