import Platform

/// Replays a recording under one model and checks every state a power cut could leave.
enum Simulation {
    struct Report {
        var crashPoints = 0
        var states = 0
        var checked = 0
        var findings: [String] = []

        var summary: String {
            "\(crashPoints) crash points, \(states) states built, \(checked) distinct states opened, "
                + "\(findings.count) failed"
        }
    }

    /// Builds, after every call (and before the first), the state with every unsynchronized
    /// change lost, the one with every change kept and `randomStates` seeded ones, and passes
    /// each distinct (state, expectation) pair to `check`, which returns what went wrong.
    static func run<E: Hashable>(
        calls: [SystemCallRecorder.Call], initialItems: [SystemCallRecorder.InitialItem],
        model: FileSystemModel,
        randomStates: Int, seed: UInt64, expectation: (Int) -> E,
        check: (DiskImage, E) -> [String]
    ) -> Report {
        var generator = CrashStateGenerator(initialItems: initialItems, model: model)
        var random = SplitMix(state: seed)
        var report = Report()
        var seen: Set<Int> = []
        for point in 0...calls.count {
            if point > 0 { generator.apply(calls[point - 1]) }
            report.crashPoints += 1
            let expected = expectation(point)
            var kinds: [CrashStateGenerator.Kind] = [.allLost]
            if generator.hasUnsynchronizedChanges {
                kinds += [.allKept, .namesKept]
                kinds += repeatElement(.random, count: randomStates)
            }
            for kind in kinds {
                let stateSeed = random.state
                let image = generator.state(kind, random: &random)
                report.states += 1
                var hasher = Hasher()
                hasher.combine(image)
                hasher.combine(expected)
                guard seen.insert(hasher.finalize()).inserted else { continue }
                report.checked += 1
                let problems = check(image, expected)
                guard !problems.isEmpty else { continue }
                report.findings.append(
                    describe(
                        point: point, kind: kind, seed: stateSeed, model: model, calls: calls,
                        expectation: expected,
                        problems: problems, image: image))
            }
        }
        return report
    }

    static func describe<E>(
        point: Int, kind: CrashStateGenerator.Kind, seed: UInt64, model: FileSystemModel,
        calls: [SystemCallRecorder.Call], expectation: E, problems: [String], image: DiskImage
    ) -> String {
        let recent = calls[max(0, point - 6)..<point].enumerated().map { offset, call in
            "  #\(max(0, point - 6) + offset + 1) \(describe(call))"
        }
        let files = image.files.keys.sorted().map { "  \($0): \(image.files[$0]!.bytes.count) bytes" }
        return """
            power cut after call \(point) (\(model), \(kind), state seed \(seed)); \(expectation)
            last calls:
            \(recent.joined(separator: "\n"))
            files:
            \(files.joined(separator: "\n"))
            problems:
              \(problems.joined(separator: "\n  "))
            """
    }

    static func describe(_ call: SystemCallRecorder.Call) -> String {
        switch call {
        case .createFile(let path, let file): "create \(path) (file \(file))"
        case .link(let path, let file): "link \(path) -> file \(file)"
        case .makeDirectory(let path): "mkdir \(path)"
        case .rename(let from, let to): "rename \(from) -> \(to)"
        case .remove(let path): "unlink \(path)"
        case .write(let file, let offset, let bytes): "write file \(file) at \(offset), \(bytes.count) bytes"
        case .truncate(let file, let length): "truncate file \(file) to \(length)"
        case .synchronizeFile(let file): "fsync file \(file)"
        case .failedSynchronizeFile(let file): "fsync file \(file) FAILED"
        case .synchronizeDirectory(let path): "fsync folder \(path.isEmpty ? "(root)" : path)"
        }
    }
}
