import Foundation

// The conformance driver: answers the requests of Spec/conformance.md with this project's
// modules. Usage: conformance-driver [--backend NAME]… [--fault NAME]… [--work-folder DIR]
//        conformance-driver --list-faults | --describe-faults

func usage(_ message: String) -> Never {
    FileHandle.standardError.write(
        Data(
            """
            conformance-driver: \(message)
            usage: conformance-driver [--backend \(Driver.backendNames.joined(separator: "|"))]… [--fault NAME]… [--work-folder DIR]
            faults: \(Fault.allCases.map(\.rawValue).joined(separator: ", "))

            """.utf8))
    exit(2)
}

var backends: [String] = []
var faults: Set<Fault> = []
var parentFolder: URL?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--backend":
        guard let name = arguments.popFirst(), Driver.backendNames.contains(name) else {
            usage("--backend needs one of the backend names")
        }
        backends.append(name)
    case "--fault":
        guard let name = arguments.popFirst(), let fault = Fault(rawValue: name) else {
            usage("--fault needs a fault name")
        }
        faults.insert(fault)
    case "--list-faults":
        print(Fault.allCases.map(\.rawValue).joined(separator: "\n"))
        exit(0)
    case "--describe-faults":
        // One line per fault, tab-separated: name, rule class, selection, what it does wrong.
        for fault in Fault.allCases {
            print(
                [fault.rawValue, fault.ruleClass, fault.selection.joined(separator: " "), fault.summary]
                    .joined(separator: "\t"))
        }
        exit(0)
    case "--work-folder":
        guard let path = arguments.popFirst() else { usage("--work-folder needs a folder") }
        parentFolder = URL(fileURLWithPath: path)
    default:
        usage("unknown argument \(argument)")
    }
}

let driver: Driver
do {
    driver = try Driver(
        backends: backends.isEmpty ? Driver.backendNames : backends, faults: faults,
        parentFolder: parentFolder)
} catch {
    usage("cannot create a work folder: \(error)")
}
while let line = readLine(strippingNewline: true) {
    if line.isEmpty { continue }
    FileHandle.standardOutput.write(Data((driver.respond(to: line) + "\n").utf8))
}
driver.removeWorkFolder()
