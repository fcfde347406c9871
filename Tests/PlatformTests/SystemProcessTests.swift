import Foundation
import Platform
import Testing

@Suite struct SystemProcessTests {
    @Test func theIdentifierIsThisProcess() {
        #expect(SystemProcess.identifier == ProcessInfo.processInfo.processIdentifier)
    }

    @Test func thePeakHoldsWhatIsResidentNow() throws {
        let size = 32 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 4096)
        defer { buffer.deallocate() }
        // Touch every page, so the buffer is resident while it is measured. (Another test may
        // reset the peak meanwhile, but never below what is resident.)
        for offset in stride(from: 0, to: size, by: 4096) { buffer[offset] = 1 }
        let peak = try #require(SystemProcess.peakResidentBytes())
        #expect(peak >= size)
        #if os(Linux)
            let memory = try #require(SystemProcess.residentMemory())
            #expect(memory.current >= size)
            #expect(memory.peak >= memory.current)
        #endif
        #expect(buffer[size - 4096] == 1)
    }

    @Test func affinityCanBeReadAndSetAgain() {
        #if os(Linux)
            guard let processors = SystemProcess.allowedProcessors() else {
                Issue.record("Linux always tells the processors a thread may run on")
                return
            }
            #expect(!processors.isEmpty)
            #expect(SystemProcess.restrictToProcessors(processors))
            #expect(SystemProcess.allowedProcessors() == processors)
        #else
            #expect(SystemProcess.allowedProcessors() == nil)
        #endif
    }

    @Test func theMachineDescribesItself() {
        #if os(Linux)
            #expect(SystemInformation.kernel().hasPrefix("Linux "))
        #endif
        #expect(!SystemInformation.kernel().isEmpty)
    }

    @Test func theStandardStreamsAreTheFirstThreeDescriptors() {
        #expect(StandardStream.allCases.map(\.descriptor) == [0, 1, 2])
        #expect(StandardStream.output.description == "standard output")
    }
}
