import Benchmarks
import Foundation

/// A GitHub-flavoured Markdown table, padded so it also reads well as plain text.
public struct MarkdownTable: Sendable, Equatable {
    public enum Alignment: Sendable, Equatable {
        case left, right
    }

    public struct Column: Sendable, Equatable {
        public var title: String
        public var alignment: Alignment

        public init(_ title: String, _ alignment: Alignment = .right) {
            self.title = title
            self.alignment = alignment
        }
    }

    public var columns: [Column]
    /// One array of cells per row; a short row is padded with empty cells, a long one is cut.
    public var rows: [[String]]

    public init(columns: [Column], rows: [[String]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// The table as Markdown text: a header row, the alignment row, then one line per row,
    /// every line ending in a newline.
    public func render() -> String {
        let header = columns.map { MarkdownTable.escape($0.title) }
        let body = rows.map { row in
            (0..<columns.count).map { $0 < row.count ? MarkdownTable.escape(row[$0]) : "" }
        }
        var widths = header.map(\.count)
        for row in body {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        // The alignment row has at least three hyphens per column (plus the colon of a right-aligned one).
        widths = zip(widths, columns).map { width, column in max(width, column.alignment == .right ? 4 : 3) }
        func line(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return columns[index].alignment == .right ? padding + cell : cell + padding
            }
            return "| " + padded.joined(separator: " | ") + " |\n"
        }
        let rule = columns.enumerated().map { index, column in
            column.alignment == .right
                ? String(repeating: "-", count: widths[index] - 1) + ":"
                : String(repeating: "-", count: widths[index])
        }
        return line(header) + "| " + rule.joined(separator: " | ") + " |\n" + body.map(line).joined()
    }

    /// A cell's text with the characters that would break the table escaped or flattened.
    static func escape(_ cell: String) -> String {
        cell.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\r\n", with: " ")
            .replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\r", with: " ")
    }
}
