import Benchmarks

/// The report's picture: the throughput results as a chart.
extension BenchmarkReport {
    /// The throughput chart, or `nil` when the run did not include the throughput suite.
    public func throughputChart() -> ThroughputChart? {
        let results = self.results.filter { $0.suite == ThroughputBenchmark.suite.name }
        guard !results.isEmpty else { return nil }
        let backends = BenchmarkReport.backends(of: results)
        let panels = ["write", "read"].compactMap { operation -> ThroughputChart.Panel? in
            let selected = results.filter { $0.op == operation }
            guard !selected.isEmpty else { return nil }
            let series = backends.map { backend in
                ThroughputChart.Series(
                    backend: backend, isBaseline: backend == RawFileStore.subject.name,
                    points: selected.filter { $0.backend == backend }.map {
                        ThroughputChart.Point(
                            size: $0.valueSize, megabytesPerSecond: $0.megabytesPerSecond, spread: $0.spread)
                    })
            }
            return ThroughputChart.Panel(operation: operation, series: series)
        }
        return ThroughputChart(
            title: "ImageCache throughput by value size",
            subtitle: "\(machine.summary)\n\(preset) run, \(dateText); median of \(repeatsText) repeats",
            panels: panels)
    }
}
