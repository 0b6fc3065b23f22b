/// Statistics the measuring tests share.
public enum Statistics {
    /// Pearson's correlation of the first values of `a` and `b` (as many as the shorter has).
    public static func correlation<A: Collection<Double>, B: Collection<Double>>(_ a: A, _ b: B) -> Double {
        let n = min(a.count, b.count)
        let x = a.prefix(n), y = b.prefix(n)
        let mx = x.reduce(0, +) / Double(n), my = y.reduce(0, +) / Double(n)
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (p, q) in zip(x, y) {
            sxy += (p - mx) * (q - my)
            sxx += (p - mx) * (p - mx)
            syy += (q - my) * (q - my)
        }
        return sxy / (sxx * syy).squareRoot()
    }
}
