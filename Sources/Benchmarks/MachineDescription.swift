import Foundation
import Platform

/// The machine a run measured, so a reader can tell which figures compare.
public struct MachineDescription: Sendable, Equatable {
    /// Logical processors the process may use (`ProcessInfo.activeProcessorCount`).
    public var cores: Int
    /// The processor's name, when the system reports one.
    public var processor: String?
    /// Physical memory in bytes.
    public var memoryBytes: UInt64
    /// The operating system's own name and version, for example `Debian GNU/Linux 12 (bookworm)`.
    public var operatingSystem: String
    /// The kernel, for example `Linux 6.8.0`.
    public var kernel: String
    /// `release` or `debug`: benchmarks of a debug build say little about the code.
    public var build: String

    public init(
        cores: Int, processor: String?, memoryBytes: UInt64, operatingSystem: String, kernel: String,
        build: String
    ) {
        self.cores = cores
        self.processor = processor
        self.memoryBytes = memoryBytes
        self.operatingSystem = operatingSystem
        self.kernel = kernel
        self.build = build
    }

    /// The machine this process runs on.
    public static func current() -> MachineDescription {
        let info = ProcessInfo.processInfo
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        return MachineDescription(
            cores: info.activeProcessorCount, processor: SystemInformation.processorName(),
            memoryBytes: info.physicalMemory, operatingSystem: info.operatingSystemVersionString,
            kernel: SystemInformation.kernel(), build: build)
    }

    /// One line, for example
    /// `2 cores (Intel Xeon @ 2.50GHz), 23.5 GiB, Debian GNU/Linux 12 (bookworm), Linux 6.8.0, release build`.
    public var summary: String {
        let gibibytes = Double(memoryBytes) / Double(1 << 30)
        var text = "\(cores) core\(cores == 1 ? "" : "s")"
        if let processor { text += " (\(processor))" }
        text += ", " + String(format: "%.1f GiB memory", gibibytes)
        text += ", \(operatingSystem), \(kernel), \(build) build"
        return text
    }
}
