/// Float samples to signed 16-bit, clamped: nothing can wrap round into a crack.
enum PCMConversion {
    static func toS16(_ input: UnsafePointer<Float>, _ output: UnsafeMutablePointer<Int16>, count: Int) {
        for i in 0..<count {
            let scaled = min(max(input[i] * 32767, -32768), 32767)
            output[i] = Int16(scaled)
        }
    }
}
