import Foundation
import NoiseClockPlatform
import Testing

/// `synced` against an independent reading of the same kernel state: Python calling glibc's
/// `adjtimex` through ctypes (`STA_UNSYNC` clear and not `TIME_ERROR` = synchronised).
@Suite struct ClockSyncTests {
    static let reference = """
        import ctypes
        class Timex(ctypes.Structure):
            _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                        ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                        ("rest", ctypes.c_byte * 256)]
        t = Timex()
        result = ctypes.CDLL("libc.so.6", use_errno=True).adjtimex(ctypes.byref(t))
        print("null" if result < 0 else ("true" if result != 5 and not (t.status & 0x40) else "false"))
        """

    @Test func matchesTheKernelAsPythonReadsIt() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.reference]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let expected: Bool? = switch text.trimmingCharacters(in: .whitespacesAndNewlines) {
        case "true": true
        case "false": false
        default: nil
        }
        #expect(ClockSync.read() == expected, "python says \(text)")
    }
}
