"""Why an expected result is right: the texts run_peers.py cites beside each deviation.

PNG3 is the PNG Specification, Third Edition (W3C Recommendation, 2025,
https://www.w3.org/TR/png-3/); places are named by the section anchors it keeps from the Second
Edition (ISO/IEC 15948:2004), for example #11tRNS. Quotes are verbatim; a text without quotation
marks is a summary.
"""

PNG3 = "PNG3"

# Expected error name -> where the standard makes such a file invalid.
BY_ERROR = {
    "invalidSignature": f'{PNG3} "PNG signature" section fixes the 8 signature bytes; #13Decoders.Errors: "A PNG signature mismatch, a CRC mismatch, or an unexpected end-of-stream indicates a corrupted datastream, and may be regarded as a fatal error."',
    "truncatedData": f'{PNG3} #13Decoders.Errors: "A PNG signature mismatch, a CRC mismatch, or an unexpected end-of-stream indicates a corrupted datastream, and may be regarded as a fatal error."',
    "chunkChecksumMismatch": f'{PNG3} #13Decoders.Errors: "A PNG signature mismatch, a CRC mismatch, or an unexpected end-of-stream indicates a corrupted datastream, and may be regarded as a fatal error." (Spec/png.md §4.3 makes it fatal for every chunk.)',
    "missingEnd": f'{PNG3}, introduction to the critical chunks: "A valid PNG datastream shall begin with a PNG signature, immediately followed by an IHDR chunk, then one or more IDAT chunks, and shall end with an IEND chunk."',
    "missingHeader": f'{PNG3} #11IHDR: "The IHDR chunk shall be the first chunk in the PNG datastream."',
    "missingImageData": f'{PNG3}, introduction to the critical chunks: "... immediately followed by an IHDR chunk, then one or more IDAT chunks, and shall end with an IEND chunk."',
    "invalidHeader": f'{PNG3} #11IHDR: width and height "Zero is an invalid value", bit depths per colour type as in its table, "Only compression method 0 ... is defined", filter method 0, interlace 0 or 1; #13Error-checking: "Unexpected values in fields of known chunks (for example, an unexpected compression method in the IHDR chunk) shall be checked for and treated as errors."',
    "invalidChunkLength": f'{PNG3} #13Error-checking: "For known-length chunks, such as IHDR, decoders should treat an unexpected chunk length as an error."; IEND: "The chunk\'s data field is empty."; #5Chunk-layout: a chunk length shall not exceed 2^31-1.',
    "invalidChunkType": f'{PNG3} #5Chunk-layout: chunk type bytes are restricted to the ASCII letters A-Z and a-z; #13Error-checking suggests checking "whether all four bytes are in the range codes 41-5A and 61-7A".',
    "unknownCriticalChunk": f'{PNG3} #13Decoders.Errors: "Encountering an unknown critical chunk is a fatal condition for any decoder trying to extract the image from the datastream."',
    "duplicateChunk": f'{PNG3}, introduction to the critical chunks: "Only one IHDR chunk and one IEND chunk are allowed in a PNG datastream."; #11PLTE: "There shall not be more than one PLTE chunk."',
    "misplacedChunk": f'{PNG3} #11IDAT: multiple IDAT chunks "shall appear consecutively with no other intervening chunks"; "Chunk ordering" section: PLTE before the first IDAT, tRNS after PLTE and before the first IDAT.',
    "missingPalette": f'{PNG3} #11PLTE: "This chunk shall appear for colour type 3"; the IHDR table: "a PLTE chunk shall appear."',
    "invalidPalette": f'{PNG3} #11PLTE: "The PLTE chunk contains from 1 to 256 palette entries"; "A chunk length not divisible by 3 is an error."; "The number of palette entries shall not exceed the range that can be represented in the image bit depth".',
    "paletteNotAllowed": f'{PNG3} #11PLTE: "it shall not appear for colour types 0 and 4."',
    "invalidTransparency": f'{PNG3} #11tRNS: two bytes of grey or six of RGB; "The tRNS chunk shall not contain more alpha values than there are palette entries".',
    "transparencyNotAllowed": f'{PNG3} #11tRNS: "A tRNS chunk shall not appear for colour types 4 and 6, since a full alpha channel is already present in those cases."',
    "invalidFilterType": f"{PNG3} #9Filters defines filter types 0 to 4 only for filter method 0.",
    "imageDataTooShort": f"{PNG3} #10Compression: the decompressed IDAT stream is the filtered scanlines of the image whose size IHDR gives; a shorter stream lacks rows (an unexpected end of the data, #13Decoders.Errors).",
    "imageDataTooLong": f"{PNG3} #10Compression: the decompressed IDAT stream is exactly the filtered scanlines IHDR implies; Spec/png.md §6.2 rejects more, where the standard (#11IDAT) only asks decoders to ignore unused trailing bytes of the compressed data.",
    "limitExceeded": "Not a PNG rule: Spec/png.md §10 (pixel-count and decompressed-size limits checked at IHDR) is this project's defence against decompression bombs.",
    "invalidZlibHeader": "RFC 1950 §2.2: CM = 8, CINFO ≤ 7, and (CMF·256 + FLG) a multiple of 31; PNG3 #10Compression requires a zlib datastream with deflate (compression method 0).",
    "presetDictionaryUnsupported": "RFC 1950 §2.2: with FDICT set the stream needs a dictionary the decoder must know; PNG defines none (PNG3 #10Compression).",
    "adlerMismatch": "RFC 1950 §2.2: ADLER32 is the checksum of the uncompressed data, to be checked.",
    "truncatedInput": "RFC 1950/1951: the stream ends before its final block and Adler-32; PNG3 #13Decoders.Errors counts an unexpected end as corruption.",
    "invalidBlockType": "RFC 1951 §3.2.3: BTYPE 11 is reserved (error).",
    "storedLengthMismatch": "RFC 1951 §3.2.4: NLEN is the one's complement of LEN.",
    "oversubscribedCode": "RFC 1951 §3.2.2/§3.2.7: code lengths must define a valid prefix code.",
    "incompleteCode": "RFC 1951 §3.2.2/§3.2.7; Spec/deflate.md §5.2 says which incomplete codes are accepted (zlib's rule).",
    "repeatWithoutPreviousLength": "RFC 1951 §3.2.7: code 16 copies the previous code length, so there must be one.",
    "codeLengthsOverflow": "RFC 1951 §3.2.7: the code lengths are HLIT + 257 + HDIST + 1 values; a repeat may not run past them.",
    "missingEndOfBlock": "RFC 1951 §3.2.7: the end-of-block code 256 must have a code (Spec/deflate.md §4.3 step 5).",
    "tooManyCodes": "RFC 1951 §3.2.7: HLIT is 257-286 and HDIST 1-30 (at most 286 and 30 codes).",
    "invalidSymbol": "RFC 1951 §3.2.6: literal/length codes 286-287 and distance codes 30-31 never occur in compressed data.",
    "distanceTooFar": "RFC 1951 §3.2.5: a distance refers back into the output already produced.",
    "unassignedCode": "RFC 1951 §3.2.7 and Spec/deflate.md §5.3: a bit pattern that is no code of the incomplete code.",
    "invalidDimensions": "Spec/png.md §2.8: width and height 1 … 2^31 − 1 (PNG3 #11IHDR: zero is invalid, and a PNG four-byte unsigned integer is at most 2^31 − 1).",
    "invalidPixelBufferLength": "Spec/png.md §2.8: the pixel buffer is exactly width × height × bytes per pixel.",
    "imageTooLarge": "Spec/png.md §2.8: a size that overflows the platform Int.",
}

# Case name -> a note on that case's expectation, where the standard says more than BY_ERROR.
BY_CASE = {
    "png/decode/palette-index-beyond-palette": (
        f'{PNG3} #11PLTE: "any out-of-range pixel value found in the image data is an error"; #13Decoders.Errors: '
        '"Displaying the pixel as opaque black is one common error recovery tactic, although such behaviour is not required by '
        'this specification". Spec/png.md §8.2 chooses opaque black (as libpng does), so a decoder that refuses the file '
        "conforms to PNG and deviates only from our spec."),
    "png/decode/bytes-after-the-zlib-stream": (
        f'{PNG3} #11IDAT: "Some images have unused trailing bytes at the end of the final IDAT chunk. ... A decoder should '
        'ignore these trailing bytes."'),
    "png/decode/trns-key-above-depth-maximum": (
        f'{PNG3} #11tRNS: "If the image bit depth is less than 16, the least significant bits are used. Encoders should set '
        'the other bits to 0, and decoders must mask the other bits to 0 before the value is used." The case expects the '
        "masked key (7 at bit depth 2 is 3: the pixels of value 3 become transparent), as libpng gives and Spec/png.md "
        "§8.2 now says; a decoder that compares the unmasked key deviates from both. (The Second Edition only said the "
        "other bits are 0.)"),
}

# The tRNS rule for 16-bit images, which a decoder that reduces samples to 8 bits can break.
TRNS_16 = (f'{PNG3} #11tRNS: "For 16-bit greyscale or truecolour data, only pixels matching the entire 16-bit values in '
           'tRNS chunks are transparent. Decoders have to postpone any sample depth rescaling until after the pixels have '
           'been tested for transparency."')

# Case names whose expectation the peers' results call into question (reported, not edited).
QUESTIONED = set()
