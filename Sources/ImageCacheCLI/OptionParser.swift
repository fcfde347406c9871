/// An option a command accepts: `--name VALUE` (or `--name=VALUE`), or a flag `--name`.
struct OptionSpec: Sendable {
    /// With its dashes: `--store`.
    var name: String
    /// The placeholder shown in help (`PATH`), or nil for a flag.
    var value: String?
    var help: String

    /// `--store PATH` or `--json`, as help shows it.
    var synopsis: String { value.map { "\(name) \($0)" } ?? name }
}

/// An operand a command takes, in order: `KEY`, `[OUT]`, `[FILE…]`.
struct OperandSpec: Sendable {
    enum Arity: Sendable {
        case one
        case optional
        /// Any number, including none; only the last operand may have it.
        case any
    }

    var name: String
    var arity: Arity
    var help: String

    var synopsis: String {
        switch arity {
        case .one: name
        case .optional: "[\(name)]"
        case .any: "[\(name)…]"
        }
    }
}

/// What the parser accepted for one command.
struct ParsedArguments: Sendable {
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    var operands: [String] = []

    /// The value given for `option` (`--store`), or nil.
    func value(_ option: String) -> String? { values[option] }

    /// Whether the flag `option` (`--json`) was given.
    func has(_ option: String) -> Bool { flags.contains(option) }

    /// Whether `option` was given at all, as a flag or with a value.
    func gave(_ option: String) -> Bool { values[option] != nil || flags.contains(option) }

    fileprivate mutating func set(_ option: OptionSpec, value: String?) {
        if let value { values[option.name] = value } else { flags.insert(option.name) }
    }
}

/// The outcome of parsing: the arguments, or a request for the command's help.
enum ParseOutcome {
    case help
    case arguments(ParsedArguments)
}

/// The one option parser every command uses (`Spec/cache.md` §12.2 states its rules).
///
/// - `--help` or `-h` anywhere before a lone `--` asks for the command's help, whatever else
///   the line holds.
/// - `--name VALUE` and `--name=VALUE`; a separate value word that starts with `--` is not
///   taken as a value (so `--store --json` reports the missing value instead of making a
///   folder named `--json`); write `--name=--odd` for such a value.
/// - Options and operands may be mixed; a lone `--` ends the options, and every word after it
///   is an operand (a key such as `--weird` or `-h`).
/// - An unknown option, a word that starts with `-` (other than `-` itself) before `--`, a
///   repeated option, a value given to a flag, and too few or too many operands are usage
///   errors.
enum OptionParser {
    static func parse(_ words: [String], for command: Command, path: String) throws(CommandLineError)
        -> ParseOutcome
    {
        let optionWords = words.prefix { $0 != "--" }
        if optionWords.contains(where: { $0 == "--help" || $0 == "-h" }) { return .help }
        var parsed = ParsedArguments()
        var remaining = words[...]
        var optionsEnded = false
        func fail(_ message: String) -> CommandLineError {
            .usage("\(message); see 'imagecache help \(path)'")
        }
        while let word = remaining.popFirst() {
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                parsed.operands.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            guard word.hasPrefix("--") else {
                throw fail(
                    "unknown option \(KeyEscaping.escaped(word)) (put -- before an operand that starts with -)"
                )
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let option = command.options.first(where: { $0.name == name }) else {
                throw fail(
                    "unknown option \(KeyEscaping.escaped(name)) (put -- before an operand that starts with -)"
                )
            }
            guard !parsed.gave(name) else { throw fail("\(name) is given twice") }
            if option.value == nil {
                guard parts.count == 1 else { throw fail("\(name) takes no value") }
                parsed.set(option, value: nil)
            } else if parts.count == 2 {
                parsed.set(option, value: String(parts[1]))
            } else {
                guard let next = remaining.first, !next.hasPrefix("--") else {
                    throw fail("\(name) needs a value (\(option.value!))")
                }
                remaining.removeFirst()
                parsed.set(option, value: next)
            }
        }
        try checkOperands(parsed.operands, of: command, fail: fail)
        return .arguments(parsed)
    }

    private static func checkOperands(
        _ operands: [String], of command: Command, fail: (String) -> CommandLineError
    ) throws(CommandLineError) {
        let required = command.operands.filter { $0.arity == .one }
        if operands.count < required.count {
            throw fail("missing \(required[operands.count].name)")
        }
        let unbounded = command.operands.contains { $0.arity == .any }
        if !unbounded && operands.count > command.operands.count {
            throw fail("unexpected operand '\(KeyEscaping.escaped(operands[command.operands.count]))'")
        }
    }
}
