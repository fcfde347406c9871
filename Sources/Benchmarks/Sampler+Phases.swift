/// Times the named phases of one repeat of an experiment; work outside `time` is not timed.
public struct PhaseTimer {
    fileprivate(set) var order: [String] = []
    fileprivate(set) var samples: [String: Double] = [:]

    /// Runs `body` and adds its duration to the phase `phase`.
    @discardableResult
    public mutating func time<Result>(_ phase: String, _ body: () throws -> Result) rethrows -> Result {
        let start = MonotonicClock.now()
        let result = try body()
        record(phase, seconds: MonotonicClock.seconds(since: start))
        return result
    }

    /// Adds `seconds` to the phase `phase`, for durations measured elsewhere (other threads).
    public mutating func record(_ phase: String, seconds: Double) {
        if samples[phase] == nil { order.append(phase) }
        samples[phase, default: 0] += seconds
    }
}

extension Sampler {
    /// Runs `work` `repeats` times (after an untimed warm-up when `warmUp` is set) and returns,
    /// for each phase it timed, the summary over the repeats, in the order phases first ran.
    ///
    /// Setting up and tearing down happen inside `work`, outside `timer.time`, so a repeat can
    /// start from a fresh store and delete it afterwards without either being measured.
    public func measurePhases(
        _ work: (_ repeat: Int, _ timer: inout PhaseTimer) throws -> Void
    ) rethrows -> [(phase: String, summary: Summary)] {
        if warmUp {
            var timer = PhaseTimer()
            try work(-1, &timer)
        }
        var order: [String] = []
        var samples: [String: [Double]] = [:]
        for index in 0..<repeats {
            var timer = PhaseTimer()
            try work(index, &timer)
            for phase in timer.order {
                if samples[phase] == nil { order.append(phase) }
                samples[phase, default: []].append(timer.samples[phase]!)
            }
        }
        return order.map { ($0, Summary(samples: samples[$0]!)) }
    }
}
