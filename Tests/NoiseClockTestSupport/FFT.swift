#if canImport(Glibc)
import Glibc
#endif

/// The FFT the audio and node tests measure audio with.
public enum FFT {
    /// In-place iterative radix-2 FFT; `re.count` must be a power of two.
    public static func transform(_ re: inout [Double], _ im: inout [Double]) {
        let n = re.count
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                re.swapAt(i, j)
                im.swapAt(i, j)
            }
        }
        // Twiddle factors once per transform, not per butterfly: the long A-weighting spectra
        // would otherwise spend most of their time in cos and sin.
        let cosines = (0..<(n / 2)).map { cos(-2 * Double.pi * Double($0) / Double(n)) }
        let sines = (0..<(n / 2)).map { sin(-2 * Double.pi * Double($0) / Double(n)) }
        var length = 2
        while length <= n {
            let step = n / length
            for start in stride(from: 0, to: n, by: length) {
                for k in 0..<(length / 2) {
                    let wr = cosines[k * step], wi = sines[k * step]
                    let a = start + k, b = a + length / 2
                    let tr = re[b] * wr - im[b] * wi
                    let ti = re[b] * wi + im[b] * wr
                    re[b] = re[a] - tr
                    im[b] = im[a] - ti
                    re[a] += tr
                    im[a] += ti
                }
            }
            length <<= 1
        }
    }
}
