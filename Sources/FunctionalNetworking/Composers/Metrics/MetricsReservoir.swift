/// The durations kept for percentiles: all of them up to `capacity`, then a uniform random
/// sample of `capacity` (Vitter's algorithm R).
struct MetricsReservoir: Sendable {
    let capacity: Int
    private var samples: [Duration] = []
    private var seen = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    mutating func add(_ duration: Duration) {
        seen += 1
        if samples.count < capacity {
            samples.append(duration)
        } else {
            let slot = Int.random(in: 0..<seen)
            if slot < capacity {
                samples[slot] = duration
            }
        }
    }

    /// The nearest-rank percentile: the smallest sample with at least `percent`% of the
    /// samples at or below it; `nil` when there are none.
    func percentile(_ percent: Int) -> Duration? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let rank = (percent * sorted.count + 99) / 100
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
