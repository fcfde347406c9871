import Foundation

extension CaseReport {
    /// The lines that follow a case's `FAIL`, `xfail` or `ok` heading (Spec/conformance.md §6.5):
    /// the failure and its details, the note, then every step that ran with its request,
    /// expectation and response, and how many steps did not run. Indented by four spaces
    /// per level, starting at level 0.
    ///
    /// - Parameter exact: true to show the requests, expectations and responses as the exact
    ///   JSON lines (`--show`); false to shorten long strings to their first characters.
    func transcript(exact: Bool) -> [String] {
        var lines: [String] = []
        if let failure {
            lines.append(failure.message)
            lines += failure.details.map { "    " + $0 }
        }
        if let note { lines.append("note: \(note)") }
        for exchange in exchanges {
            lines.append("\(exchange.label): \(exchange.matched ? "ok" : "FAILED")")
            lines.append("    request:  " + (exact ? exchange.request.jsonText : exchange.request.summary))
            lines.append("    expected: " + (exact ? exchange.expect.jsonText : exchange.expect.summary))
            lines.append("    response: " + response(of: exchange, exact: exact))
        }
        let notRun = stepCount - exchanges.count
        if notRun == 1 {
            lines.append("step \(stepCount): not run")
        } else if notRun > 1 {
            lines.append("steps \(exchanges.count + 1)–\(stepCount): not run")
        }
        return lines
    }

    private func response(of exchange: Exchange, exact: Bool) -> String {
        guard let line = exchange.responseLine else { return "none" }
        if exact { return line }
        guard let value = try? JSONValue.parse(Data(line.utf8)) else {
            return line.count > 200 ? String(line.prefix(200)) + "…" : line
        }
        return value.summary
    }
}
