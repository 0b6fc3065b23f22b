#if canImport(Glibc)
import Glibc
#endif

/// `sin(2π·phase)` for a phase in [0, 1) from a 4096-point table with linear interpolation
/// (error below 3·10⁻⁷): a fan's hum and blade beat need three sines per frame, and `sinf` was
/// most of its cost, which a mix pays once per layer.
struct SineTable {
    static let size = 4096
    /// One extra point so interpolation at the last index needs no wrap.
    private let values: [Float]

    init() {
        values = (0...Self.size).map { sinf(2 * Float.pi * Float($0) / Float(Self.size)) }
    }

    @inline(__always)
    func sine(ofPhase phase: Float) -> Float {
        let position = phase * Float(Self.size)
        let index = min(Int(position), Self.size - 1)
        let fraction = position - Float(index)
        return values.withUnsafeBufferPointer { table in
            table[index] + (table[index &+ 1] - table[index]) * fraction
        }
    }
}
