import PNG

/// `imagecache png decode|encode|info|resize` (`Spec/png.md` §11, `Spec/thumbnail.md`). Each
/// subcommand is a command of its own in ``subcommands``.
enum PNGCommands {
    static var group: Command {
        Command(name: "png", summary: "decode, encode and inspect PNG files", action: .group(subcommands))
    }

    static let input = OperandSpec(name: "IN", arity: .one, help: "the file to read; - is standard input")
    static let output = OperandSpec(
        name: "OUT", arity: .one, help: "the file to write; - is standard output; written only on success")

    static var subcommands: [Command] {
        [
            Command(
                name: "decode", summary: "write a PNG's RGBA conversion as PAM (RGB_ALPHA)",
                operands: [input, output], action: .parsed(decode)),
            Command(
                name: "encode", summary: "write the canonical PNG of a PAM image",
                operands: [input, output],
                notes: [
                    "IN is a PAM with TUPLTYPE GRAYSCALE, GRAYSCALE_ALPHA, RGB or RGB_ALPHA and MAXVAL 255 or 65535."
                ],
                action: .parsed(encode)),
            Command(
                name: "info", summary: "print a PNG's header fields and its chunks", operands: [input],
                action: .parsed(info)),
            Command(
                name: "resize", summary: "downsample a PNG to fit N × N pixels, as a canonical PNG",
                options: [StoreOptions.maximumPixelSize], operands: [input, output],
                notes: [
                    "Exact area averaging on premultiplied alpha (Spec/thumbnail.md §1–§2), in the image's own "
                        + "format; never upscales. Any PNG in, the canonical PNG of Spec/png.md §2 out."
                ],
                action: .parsed(resize)),
        ]
    }

    @Sendable static func decode(_ arguments: ParsedArguments) throws {
        let output = try OutputFile(arguments.operands[1])
        let decoded = try PNGDecoder().decode(try FileAccess.read(arguments.operands[0]))
        try output.write(PAM.encode(decoded.rgba()))
        try output.commit()
    }

    @Sendable static func encode(_ arguments: ParsedArguments) throws {
        let output = try OutputFile(arguments.operands[1])
        let bitmap = try PAM.decode(try FileAccess.read(arguments.operands[0]))
        try output.write(PNGEncoder.encode(bitmap))
        try output.commit()
    }

    @Sendable static func resize(_ arguments: ParsedArguments) throws {
        let maximum = try ArgumentValues.maximumPixelSize(arguments, command: "png resize")
        let output = try OutputFile(arguments.operands[1])
        let bitmap = try PNGDecoder().decodeBitmap(try FileAccess.read(arguments.operands[0]))
        try output.write(PNGEncoder.encode(try bitmap.downsampled(toFit: maximum)))
        try output.commit()
    }

    @Sendable static func info(_ arguments: ParsedArguments) throws {
        let (header, chunks) = try PNGDecoder().readStructure(try FileAccess.read(arguments.operands[0]))
        let nativeFormat =
            header.pixelFormat.map(\.description)
            ?? "none (decodes to \(header.bitDepth == 16 ? "rgba16" : "rgba8"))"
        var lines = [
            "width: \(header.width)",
            "height: \(header.height)",
            "bit depth: \(header.bitDepth)",
            "color type: \(header.colorType.rawValue) (\(header.colorType))",
            "interlace: \(header.interlaced ? "adam7" : "none")",
            "native format: \(nativeFormat)",
            "chunks: \(chunks.count)",
        ]
        lines += chunks.map { "  \($0.type) offset \($0.offset) length \($0.length)" }
        try StandardOutput.write(lines.joined(separator: "\n") + "\n")
    }
}
