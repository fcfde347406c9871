import Foundation
import Testing

/// zlib streams made by Python 3.11's `zlib` module (zlib 1.2.13) from deterministic data, and
/// the generators that rebuild that data exactly, so each test compares every output byte.
///
/// The streams were made with this script; `FixtureData` mirrors its generators:
///
///     import zlib, base64
///     WORDS = [b"the", b"quick", b"brown", b"fox", b"jumps", b"over", b"lazy", b"dog", b"pixel",
///              b"cache", b"image", b"deflate", b"huffman", b"block", b"\n", b", "]
///     def lcg(seed):
///         s = seed
///         while True:
///             s = (s * 1103515245 + 12345) & 0x7FFFFFFF
///             yield s >> 16
///     def text(n, seed=1):
///         g = lcg(seed); out = bytearray()
///         while len(out) < n: out += WORDS[next(g) % len(WORDS)] + b" "
///         return bytes(out[:n])
///     def noise(n, seed=2):
///         g = lcg(seed); return bytes(next(g) & 0xFF for _ in range(n))
///     def gradient(w, h):
///         out = bytearray()
///         for y in range(h):
///             out.append(y % 5)
///             for x in range(w):
///                 out += bytes([(x + y) & 0xFF, (2 * x + y) & 0xFF, (255 - x) & 0xFF, 255])
///         return bytes(out)
///     def runs(n, seed=3):
///         g = lcg(seed); out = bytearray()
///         while len(out) < n:
///             r = next(g)
///             out += bytes([r & 0xFF]) * (1 + (r >> 8) % 300)
///             out += bytes([next(g) & 0xFF, next(g) & 0xFF])
///         return bytes(out[:n])
///     DATA = {"text": text(4000), "noise": noise(1200), "gradient": gradient(32, 32), "runs": runs(4000),
///             "textLong": text(40000, seed=9)}
///     VARIANTS = [("level0", 0, 0, 8), ("level1", 1, 0, 8), ("level6", 6, 0, 8), ("level9", 9, 0, 8),
///                 ("fixed", 6, zlib.Z_FIXED, 8), ("huffmanOnly", 6, zlib.Z_HUFFMAN_ONLY, 8),
///                 ("rle", 6, zlib.Z_RLE, 8), ("smallBlocks", 6, 0, 1)]
///     print("    static let all: [ZlibFixture] = [")
///     for dname, d in DATA.items():
///         for vname, level, strategy, mem in VARIANTS:
///             if dname == "textLong" and vname != "smallBlocks": continue
///             c = zlib.compressobj(level, zlib.DEFLATED, 15, mem, strategy)
///             s = c.compress(d) + c.flush()
///             assert zlib.decompress(s) == d
///             b64 = base64.b64encode(s).decode()
///             lines = [b64[i:i+84] for i in range(0, len(b64), 84)]
///             body = "\n".join('                ' + l for l in lines)
///             print(f'        ZlibFixture(\n            data: .{dname}, variant: "{vname}", firstBlockType: {(s[2] >> 1) & 3},')
///             print(f'            outputCRC32: 0x{zlib.crc32(d):08X},\n            base64:')
///             print('            """\n' + body + '\n                """),')
///     print("    ]")
struct ZlibFixture: Sendable, CustomTestStringConvertible {
    var data: FixtureData
    var variant: String
    /// BTYPE of the stream's first block, read from its third byte.
    var firstBlockType: Int
    /// Python's `zlib.crc32` of the data: guards the Swift generators against drift.
    var outputCRC32: UInt32
    var base64: String

    var stream: [UInt8] {
        [UInt8](Data(base64Encoded: base64, options: .ignoreUnknownCharacters)!)
    }
    var testDescription: String { "\(data) \(variant)" }

    static let all: [ZlibFixture] = [
        ZlibFixture(
            data: .text, variant: "level0", firstBlockType: 0,
            outputCRC32: 0xBBD9_5C6C,
            base64:
                """
                eAEBoA9f8GxhenkgCiBxdWljayBkZWZsYXRlIGRlZmxhdGUgZGVmbGF0ZSBicm93biBkZWZsYXRlIGp1bXBz
                IGxhenkgYmxvY2sgLCAgaHVmZm1hbiBodWZmbWFuIHF1aWNrIGRvZyBxdWljayAsICBxdWljayAKIGxhenkg
                YnJvd24gLCAgZG9nIGRvZyBsYXp5IGRvZyBjYWNoZSBpbWFnZSBwaXhlbCBodWZmbWFuIGNhY2hlIGltYWdl
                IGxhenkgZm94IGRlZmxhdGUgYnJvd24gb3ZlciBxdWljayBwaXhlbCBodWZmbWFuIGp1bXBzIG92ZXIgLCAg
                ZG9nIAogb3ZlciBkZWZsYXRlIGltYWdlIGJyb3duIGNhY2hlIHBpeGVsIGh1ZmZtYW4gZm94IGltYWdlIGxh
                enkgCiAsICBjYWNoZSBjYWNoZSAsICAsICAsICBsYXp5IAogZm94IHBpeGVsIGJsb2NrIGJsb2NrIGltYWdl
                IAogbGF6eSBpbWFnZSBqdW1wcyBsYXp5IAogaHVmZm1hbiBjYWNoZSBibG9jayAKICwgIGxhenkgcXVpY2sg
                dGhlIHRoZSBkZWZsYXRlICwgIHF1aWNrIHBpeGVsIG92ZXIgdGhlIG92ZXIgY2FjaGUgaHVmZm1hbiBmb3gg
                YmxvY2sgaW1hZ2UgZGVmbGF0ZSBwaXhlbCBjYWNoZSBicm93biBmb3ggYnJvd24gYmxvY2sgbGF6eSAsICBp
                bWFnZSBvdmVyIGJyb3duIGxhenkgZm94IHBpeGVsIGNhY2hlIGJyb3duIHF1aWNrIAogaHVmZm1hbiBicm93
                biBwaXhlbCBxdWljayBodWZmbWFuIGJyb3duIGxhenkgb3ZlciBxdWljayBsYXp5ICwgIGRvZyBsYXp5IGNh
                Y2hlIGJsb2NrIGxhenkgaW1hZ2UgcGl4ZWwganVtcHMgb3ZlciBwaXhlbCBodWZmbWFuIGRvZyBodWZmbWFu
                IHF1aWNrIGRlZmxhdGUgYmxvY2sgcXVpY2sgCiAsICB0aGUgY2FjaGUgZG9nIHF1aWNrIGRlZmxhdGUgLCAg
                Zm94IGJsb2NrIHF1aWNrIHRoZSBibG9jayBvdmVyIGJsb2NrIGJsb2NrIGRlZmxhdGUgZm94IGJsb2NrIAog
                CiAsICAKIGxhenkgcGl4ZWwganVtcHMgbGF6eSBpbWFnZSBxdWljayBmb3ggZm94IHF1aWNrIHBpeGVsIGp1
                bXBzIGRvZyBkZWZsYXRlIGltYWdlIHRoZSB0aGUgcXVpY2sgZm94ICwgIGNhY2hlIHRoZSBkb2cgYnJvd24g
                Zm94IG92ZXIgdGhlIHF1aWNrIHF1aWNrIGRvZyBvdmVyIGJyb3duIG92ZXIgcGl4ZWwgLCAgCiAKIGNhY2hl
                IGRlZmxhdGUganVtcHMgLCAgdGhlIGJsb2NrIGNhY2hlIAogaW1hZ2UgZGVmbGF0ZSBsYXp5IHRoZSB0aGUg
                bGF6eSAsICBkb2cgaHVmZm1hbiBsYXp5IG92ZXIgaW1hZ2UgcGl4ZWwgaHVmZm1hbiBkZWZsYXRlIHRoZSBk
                ZWZsYXRlIGRvZyBjYWNoZSBqdW1wcyBicm93biBmb3ggYnJvd24gcGl4ZWwgdGhlIG92ZXIgbGF6eSBkb2cg
                b3ZlciBkb2cgZG9nIGh1ZmZtYW4gdGhlIGp1bXBzIGRlZmxhdGUgZm94IGp1bXBzIGJyb3duIGxhenkgZm94
                IGh1ZmZtYW4gZm94IG92ZXIgY2FjaGUgCiBpbWFnZSBpbWFnZSBmb3ggdGhlIGJsb2NrIGRlZmxhdGUgcXVp
                Y2sgCiAKIGNhY2hlIGh1ZmZtYW4gZG9nIGNhY2hlIHF1aWNrIGZveCBpbWFnZSAKIG92ZXIgaW1hZ2UgZm94
                IGh1ZmZtYW4gcGl4ZWwgcXVpY2sgbGF6eSBxdWljayBkZWZsYXRlIG92ZXIgZG9nIGp1bXBzIGltYWdlIGNh
                Y2hlICwgICwgIGxhenkgYnJvd24gdGhlIGJsb2NrIHF1aWNrIG92ZXIgYnJvd24gZG9nIGRlZmxhdGUgYnJv
                d24gb3ZlciAKICwgIGJsb2NrIGxhenkgcGl4ZWwgaHVmZm1hbiB0aGUgYmxvY2sgZGVmbGF0ZSBqdW1wcyBx
                dWljayBodWZmbWFuIGRlZmxhdGUgZG9nIGp1bXBzIGRvZyBmb3ggYmxvY2sgYnJvd24gZm94IGp1bXBzIGxh
                enkgb3ZlciBxdWljayBxdWljayBxdWljayBwaXhlbCBwaXhlbCBkb2cgLCAgcXVpY2sganVtcHMgYmxvY2sg
                b3ZlciBkZWZsYXRlIHRoZSAsICBmb3ggb3ZlciBqdW1wcyBjYWNoZSBwaXhlbCBodWZmbWFuICwgIGxhenkg
                cXVpY2sgaW1hZ2UgZm94IGRvZyBvdmVyIGRlZmxhdGUgYnJvd24gYnJvd24gYnJvd24gZm94IGh1ZmZtYW4g
                dGhlIGxhenkgcXVpY2sgbGF6eSBqdW1wcyBibG9jayBicm93biBpbWFnZSBodWZmbWFuIGJsb2NrIGxhenkg
                cXVpY2sgY2FjaGUgZm94IGJyb3duIHF1aWNrICwgIGRlZmxhdGUgaW1hZ2UgbGF6eSBodWZmbWFuIHF1aWNr
                IGh1ZmZtYW4gYnJvd24gcGl4ZWwgZGVmbGF0ZSBibG9jayBqdW1wcyB0aGUgZm94IG92ZXIgaW1hZ2UgYnJv
                d24gbGF6eSBpbWFnZSBsYXp5IHBpeGVsIGJsb2NrIGh1ZmZtYW4gcXVpY2sgb3ZlciAKIG92ZXIgYnJvd24g
                dGhlIGZveCAsICBodWZmbWFuIGZveCBvdmVyIGZveCBkZWZsYXRlIGZveCB0aGUgb3ZlciBibG9jayAKIGxh
                enkgdGhlIHF1aWNrIGxhenkgdGhlIGZveCBxdWljayAsICBjYWNoZSBwaXhlbCAKIGNhY2hlIGNhY2hlIGNh
                Y2hlICwgIAogcXVpY2sgcXVpY2sgY2FjaGUgZGVmbGF0ZSBkZWZsYXRlIGZveCBibG9jayAsICAsICAKIG92
                ZXIgb3ZlciBvdmVyIGRlZmxhdGUgYmxvY2sgcXVpY2sgLCAgaHVmZm1hbiBxdWljayBodWZmbWFuIGJyb3du
                IGp1bXBzIGltYWdlICwgIHBpeGVsIGxhenkgZG9nIHF1aWNrIGxhenkgCiBibG9jayBxdWljayAKIGJyb3du
                ICwgIGZveCBqdW1wcyBkb2cgaHVmZm1hbiBpbWFnZSBxdWljayBmb3ggaHVmZm1hbiBjYWNoZSBjYWNoZSBk
                b2cgcGl4ZWwgaW1hZ2UgYmxvY2sgcGl4ZWwgaHVmZm1hbiBpbWFnZSB0aGUgcXVpY2sgYmxvY2sgZGVmbGF0
                ZSBpbWFnZSBpbWFnZSBjYWNoZSBwaXhlbCAKIGxhenkganVtcHMgb3ZlciBkZWZsYXRlIHRoZSBodWZmbWFu
                IAogb3ZlciBmb3ggcXVpY2sgYmxvY2sgcXVpY2sgaHVmZm1hbiBkb2cgcGl4ZWwgZm94IHRoZSBkb2cgdGhl
                IHBpeGVsIGJsb2NrIGNhY2hlIGNhY2hlIGZveCBxdWljayBicm93biBpbWFnZSBkb2cgYmxvY2sgYmxvY2sg
                anVtcHMgcGl4ZWwgZG9nIGltYWdlIGZveCBicm93biBicm93biBjYWNoZSBsYXp5IGRvZyAsICBqdW1wcyAK
                IGltYWdlICwgIHRoZSBwaXhlbCBodWZmbWFuICwgIGJyb3duIGltYWdlIGNhY2hlIGJyb3duIGJyb3duIHRo
                ZSBicm93biAKIHF1aWNrIGp1bXBzIHBpeGVsIGxhenkgY2FjaGUgLCAgYmxvY2sgaW1hZ2UgcGl4ZWwgcXVp
                Y2sgZGVmbGF0ZSBxdWljayBodWZmbWFuIGJyb3duIHF1aWNrIGJyb3duIGJsb2NrIGRvZyBxdWljayBvdmVy
                IAogZm94IGRlZmxhdGUgaHVmZm1hbiBxdWljayBmb3ggZG9nIHF1aWNrIGJsb2NrIGRvZyBvdmVyIAogcXVp
                Y2sgcXVpY2sgb3ZlciAKIGxhenkgLCAgb3ZlciBkb2cgbGF6eSBjYWNoZSBibG9jayBqdW1wcyAKIGltYWdl
                IGh1ZmZtYW4gb3ZlciBqdW1wcyAKIHF1aWNrIG92ZXIgcGl4ZWwgdGhlIGNhY2hlICwgIGh1ZmZtYW4gdGhl
                IGRlZmxhdGUgLCAganVtcHMgbGF6eSBvdmVyIGltYWdlIGh1ZmZtYW4gY2FjaGUganVtcHMgYmxvY2sgaHVm
                Zm1hbiAKIGxhenkgbGF6eSBodWZmbWFuIGJyb3duIHF1aWNrIG92ZXIgZG9nIGxhenkgLCAgLCAgcXVpY2sg
                YmxvY2sgLCAgY2FjaGUgZG9nIGRvZyBibG9jayAsICBkZWZsYXRlIGltYWdlIGh1ZmZtYW4gZG9nIGJsb2Nr
                IG92ZXIgY2FjaGUgY2FjaGUgY2FjaGUgb3ZlciB0aGUgZGVmbGF0ZSBicm93biBqdW1wcyBpbWFnZSAKIGJy
                b3duIGp1bXBzIGJsb2NrIGltYWdlIAogLCAgYnJvd24gaW1hZ2UgZGVmbGF0ZSBkZWZsYXRlIG92ZXIgbGF6
                eSBqdW1wcyB0aGUgLCAgb3ZlciBsYXp5IGltYWdlIGZveCAsICBxdWljayBibG9jayBpbWFnZSBqdW1wcyAs
                ICBodWZmbWFuIAogLCAgYnJvd24gZG9nIGNhY2hlIGRvZyB0aGUgZG9nIGh1ZmZtYW4gZGVmbGF0ZSBibG9j
                ayBkZWZsYXRlIAogZGVmbGF0ZSBodWZmbWFuIHF1aWNrIGRlZmxhdGUgZG9nIG92ZXIgZm94IHBpeGVsIHBp
                eGVsIG92ZXIgZG9nIGRvZyB0aGUgY2FjaGUgb3ZlciAsICBmb3ggcGl4ZWwgbGF6eSBjYWNoZSBicm93biBm
                b3ggdGhlIGltYWdlIGRlZmxhdGUgCiBqdW1wcyBqdW1wcyBicm93biBkZWZsYXRlIGp1bXBzIGRlZmxhdGUg
                YmxvY2sgZGVmbGF0ZSBvdmVyIHBpeGVsIGJyb3duIGZveCBjYWNoZSAsICBicm93biB0aGUgY2FjaGUgdGhl
                IGJyb3duIGRlZmxhdGUgb3ZlciBxdWljayBibG9jayBpbWFnZSBkZWZsYXRlIGxhenkgaHVmZm1hbiBibG9j
                ayBwaXhlbCBsYXp5IHRoZSBmb3ggYnJvd24gYmxvY2sgb3ZlciAFKn+z
                """),
        ZlibFixture(
            data: .text, variant: "level1", firstBlockType: 2,
            outputCRC32: 0xBBD9_5C6C,
            base64:
                """
                eAFllm1aG0EMg//vKfYAvVSg4aMNhFJoaU9fS+9ox0Ofh2x2bUuW5UnC5fT3z77tP94fb7/vX893l9Pb+b/3
                m9fr7+cj+u396eXnfhHw5nIt2Jd9f3i/u3s6PR/vg+96P5irhNA2gGas6Ncq0ct0urk93T6c98en0/15f3n8
                OF8Ozp5x+d314xCFxOuv8+totGLR7PRouu1+ysg0hIVGK4F6UePWm4amjms98jfSqocBj7jCMDzgobm5fRoV
                jFuZFQffyh69orzakqCdp1LeN4jLdiSqCwkFSGqxwJXeEfXuX53QbGoKnZjDdo4sPN0B0IvcmjGVqcmm53E8
                BrnPnJOogbFtmEDIBc89xBmb0SKzppNtNBFoLa70tI+UyuHAEAsjkBYTstWnrDjG7rvmNgq8AunFUy+VrFAz
                vDToNZHVhBkUFmBu1DJnNRiVtIX6lp6Wu8WR8d2Az5USD8PSbhuHI/o8lor06rvMMhxzu77HZEMjdO4llWao
                mJP1syWEad3gGE83eqWByqAJvTzvxMYrGIjuzbxOjHwlxbkeADzW8sGEao4yNwfP+GKapIGwFMotbexvLMbC
                RMsI4Gla26o/YzBq6oTDWFK2aVAScdKHl9HMg5hIm3zxEhGwpyq5KVJ38g1i2ukZtBu5Ozz9Sn+uYqn5SI8F
                +rOIJWMYaayqY4cUYtA6TbyCcC5CfRZKBPer2DOuGrY9+barAwd9MM1huqPPHvnrmGgpjJngTR4SavJEm+FU
                Fmt7ECOZhymwATFno4cChSGn1TghfgMb0hKa0qOHbqJe96oFalXjG1JR2K0jhMf8fXH5cBHjWp3zbw0Ywmmc
                dwlgpAIYYynzkkKKjvaZikCeGB5fca4o8c1T6ASB8OM2WhOqp/xXJFWwCBF2GClWReJ9bNXTcKzSnhJJPZlp
                MKNlULJcYQY99oIs+xOEmMI9vr0kD6HdtxRNkaoTXBG90wpMH6vx2SPkCUUtV7TBoRxVwuIsV3iPfdSGwOUH
                rAJTSiRXEHQ3prMKwnOOXVfjbjQWk5cCE2rxKobylNawDjfb/2SakKi3sflTHIqAKZAFs5z2eh5AihYuCy6p
                LLpK2wTd7JiWfq6Pn42RMWXS4UIgCkZ2dQTsdibDphSDpgYdyYzzaWBi3bp1kmpUfwiEpx4hlzF6HeGIW5XM
                EjOD7VeH+3CoQTtc+cj3eZIpPQAIRETeze5hAatRQWYYmDb/aVASoCoVr/iF9/nSaNMLj1CRFEYB/uRpO3aY
                OsxNXpwWJ0WcBq4OKquXetHZ4ZI3y/sJtEylBFgN2sYJGp4y0PjdIxZJ6wBuiCR8Fz1aSgahKU93xMJmfD9Q
                q6z1XLZvZSdEp35QIsyE/wAFKn+z
                """),
        ZlibFixture(
            data: .text, variant: "level6", firstBlockType: 2,
            outputCRC32: 0xBBD9_5C6C,
            base64:
                """
                eJx1l1t22zAMRP+5Ci2gm3JSOXFrx2kqt2lXX5GDx4WknhMrkkgOCGAwoK6nv3+mNv14XJ6/T1/n8/W0zLv/
                Tx/332/x9O1xe/85XfvCp+t9XfZlml4f5/Pt9Bb/De/+YnfrFN00WzgQ17d9Sv+Nt/3m+fT8Ok+X2+llnt4v
                n/M1MDkypp/vn5st3n/NH2aortWex7AZbXry9YIVigxVgG4LpluH0Txd10f92XCfLwTFSFchWAz0gGi2jata
                0wJVji3rSP/5ziO0Mje86uPjRkB0ghtxCK00oyMEY+a40/xhf7WkdQNaw5GIPYYn3K3rreZprI4MKGTQbQY9
                GBVEUIjIcM1cX76hpXNmIPk2V0tLpDOZizBn+DITelZAkGhflUuaTFjuuWe4Ity+qP+YVk0d1VIY62zIlUHM
                xfzIjAY3NDuLFAlFBMd2m0ekVL8FS65pQtuQarjl22MuPRmZ76NqdxhSPfVBu9hyVQhB/tAUVbopjRtYAobJ
                InBwm/WDsnKPde2DGRPHdHa1TSmmK5k5VwfEhNZZOdADtxROygWtpzhBeHOfwkD+STEwYpAXpVeTtfdbm6hl
                zjQmn7NEMp0oDAgCr7Kva0cJFbQEZlmSSFbE470mHml91dtMRFKpxIdX5it4j5Rxd1oh+FDCjLBWaX9J8Win
                VQbGiqpyR7JblU+bWQwfrAP9Ac92Vk0ZQ8AiB8XRIGywbXvRQEBbKgcC54DhPxPXSisOzrfCmCpje4FWkZgX
                eTlqFvDqKNYswHWq9hhiBKfapgXFqShrgIq17RH1tJCNSwYtlcNA5Xd2DmHVyqWm1SCDwbvKcuyWOSb4Rghi
                k57//mYJU2wrWQCGh6oZ3Q1dV3tLUcjSZY0KMfKxhlvrWqZsOdIEWuY5B5I67lpRImQ/iMkzGFW9No1KKnpv
                CQsyWf2xsCo/Xb1Kvl3NapnYK2/Y0VV2J7AaNLcHaW1EzNYcUaBO4pS11f6KX9p/kSLbc1FChq56ompnPEJT
                /KAQr2tlkMRoM3sFitNWbRdUh1be1W+EDeO2wpUnnJRxzxeU20SYjvK7A2mAxTyceF1Shqoi+lP7D/XY9EMa
                2L3L4Wyp0TMp3NVQNtslPglzI3KNJ7l6Kjl2ADRN+CzZKPI8XFdsHFSOvrEqL6HKpb2xvgfgPwUqf7M=
                """),
        ZlibFixture(
            data: .text, variant: "level9", firstBlockType: 2,
            outputCRC32: 0xBBD9_5C6C,
            base64:
                """
                eNp1l1t22zAMRP+5Ci2gm3JSOXFrx2kqt2lXX5GDx4WknhMrkkgOCGAwoK6nv3+mNv14XJ6/T1/n8/W0zLv/
                Tx/332/x9O1xe/85XfvCp+t9XfZlml4f5/Pt9Bb/De/+YnfrFN00WzgQ17d9Sv+Nt/3m+fT8Ok+X2+llnt4v
                n/M1MDkypp/vn5st3n/NH2aortWex7AZbXry9YIVigxVgG4LpluH0Txd10f92XCfLwTFSFchWAz0gGi2jata
                0wJVji3rSP/5ziO0Mje86uPjRkB0ghtxCK00oyMEY+a40/xhf7WkdQNaw5GIPYYn3K3rreZprI4MKGTQbQY9
                GBVEUIjIcM1cX76hpXNmIPk2V0tLpDOZizBn+DITelZAkGhflUuaTFjuuWe4Ity+qP+YVk0d1VIY62zIlUHM
                xfzIjAY3NDuLFAlFBMd2m0ekVL8FS65pQtuQarjl22MuPRmZ76NqdxhSPfVBu9hyVQhB/tAUVbopjRtYAobJ
                InBwm/WDsnKPde2DGRPHdHa1TSmmK5k5VwfEhNZZOdADtxROygWtpzhBeHOfwkD+STEwYpAXpVeTtfdbm6hl
                zjQmn7NEMp0oDAgCr7Kva0cJFbQEZlmSSFbE470mHml91dtMRFKpxIdX5it4j5Rxd1oh+FDCjLBWaX9J8Win
                VQbGiqpyR7JblU+bWQwfrAP9Ac92Vk0ZQ8AiB8XRIGywbXvRQEBbKgcC54DhPxPXSisOzrfCmCpje4FWkZgX
                eTlqFvDqKNYswHWq9hhiBKfapgXFqShrgIq17RH1tJCNSwYtlcNA5Xd2DmHVyqWm1SCDwbvKcuyWOSb4Rghi
                k57//mYJU2wrWQCGh6oZ3Q1dV3tLUcjSZY0KMfKxhlvrWqZsOdIEWuY5B5I67lpRImQ/iMkzGFW9No1KKnpv
                CQsyWf2xsCo/Xb1Kvl3NapnYK2/Y0VV2J7AaNLcHaW1EzNYcUaBO4pS11f6KX9p/kSLbc1FChq56ompnPEJT
                /KAQr2tlkMRoM3sFitNWbRdUh1be1W+EDeO2wpUnnJRxzxeU20SYjvK7A2mAxTyceF1Shqoi+lP7D/XY9EMa
                2L3L4Wyp0TMp3NVQNtslPglzI3KNJ7l6Kjl2ADRN+CzZKPI8XFdsHFSOvrEqL6HKpb2xvgfgPwUqf7M=
                """),
        ZlibFixture(
            data: .text, variant: "fixed", firstBlockType: 1,
            outputCRC32: 0xBBD9_5C6C,
            base64:
                """
                eAHLSayqVOBSKCzNTM5WSElNy0ksScWgk4ryy/PgvKzS3IJihRyQxqScfKA2HQWFjNK0tNzEPDgNNS8/HcoC
                KoEwuKAawSYCRUFKQBgsCmIkJyZnpCpk5iampyoUZFak5sDNRJYBK0/Lr0BzYn5ZahHUIlS9EDeDpaGWckF4
                MP0QYyGmQCxCNQBkF5LVXCBjIOogJJALQVBpkHqICZAwgpAQE6BhAOEghSYXmlcherjgpkI8VgKUAWGYy+FB
                C7EO7CuQPJgBMQjZE8gOgRkB0Qm1FBwEYJVgFkQ92H6gTRB9YKMh0vCIwDQDFuEw2yGiEHUQOVQZsFFIMQiz
                E548kEMFKQQhJiLFMGrMgbSjJUtYmgGbBHMm0KYSeHQiUi5SMCOCDxETED4kQJAiGqYLoYULYgU07pHdjOQV
                iLkgTSCMHK0QpeDcgpJiYakBoROeMEug/kDEKDxtQFQjMilShCKFINi5XLAQQcn90MCCeA2igAstUYG9BXMe
                clzCIgMR39hyO8wY5KSOKB8grkBPqxAT4IkfXqZAcjq0pIFZUAI3BjmykA2Gp23k/IOUrWA+hpAgSUSYwMyE
                pS4utKyI8Aoi5mClA1KYINuOnHOQygOYTXBPQrwA0Y9cOCEVvAh3QsxAin/kJIaUIsCJFynroUYWpr8hjkDN
                5sjRiEjPiCyCiE6kjIFUICCTEPshJMgUeCkIjUBEtkROSNBMDBaHKMRW1qOWt4iIQCQllPBBJpHjC57ukaIM
                2XUQHRDj4SUhIoQhuiDuQyRxeHWKWgyAdaCWctiKXdSSD+KYEqj5SKkOKfkjGY9cnaFaBU0hSKkIZihS0wBu
                B3K1Dcs0SAUoF6LkQAo4mIFw/yNHHBdKVQxP81woKQa1GMMsoCGZBOoLBIGtskDyFbawRs6AQKUQN8ILIyRP
                caFVQfBWESIPIJdY6HUEamsBUXFBLIRGJdgC1PSNqDkgZqHmXOQyDTWQkVIwRs6Cmc2FiGNkw9EKArgjYfEP
                EimBW4VcrSAyANQ8pFwDrt2Qal2I2xCFAiLrIudRiInw+AAGN0QfFyLKSrCVCcg2I7dzkIpUMIsLpSRCin14
                wkRugyGX6qiVBmqiQvY9NMLgiQma/5AzFmr6hJVeKPENK81QswlUCFZhw2sVjBYYaqDB7EMqWrmQTURUzfBQ
                QC4nkVpZ6GU/qvko1T9KUQR1M0pJiBx0qD6B5Hbk8ICXKbCGAlwYNWcgJ2KkagazBIK3tlCrC+TSgQtFDLWP
                gJbi0AsuRAsHUYzD4gup5IYWwsgeRe53IEUDko2IxgksXyIXQ6glIozHhSPpIVf68KIBufZGaZyVoIYetCjE
                yEOIyrYE3iVEOATiNeSWHGqrBLsHkJIpwnhEloVnckTjGtVspIYKtj4WarpEKpVRqjfk/A02EAAFKn+z
                """),
        ZlibFixture(
            data: .text, variant: "huffmanOnly", firstBlockType: 2,
            outputCRC32: 0xBBD9_5C6C,
            base64:
                """
                eAEFwduhhCAMQMH/reIUYFMhBuHyiLLiqtXfmSrvw4djZi2sFqucxmqxymmsFqucRhj+66wWq5zG32z7lyrv
                Q6iuhQXSjLFJJ80Ym3SOmbWw+sYxsxYWOGbWwocq70MY/usssPrG6htV3ofVN1Q0GbnJZuz5tkqaMTbpqGgy
                cpPNqPI+RL9ZLVY5jTD81/HLBsfMWtjzbZU0Y2zS+Ztt/+KXDRZYfeODXzZYLVY5jdxkM8LwX0dFk7Hn2ypp
                xtikE/0mN9mMKu/DhwVUNBkqmowFFligyvvwIfrNnm+rhOpaCNW1kJtsxocq70Nushl/s+1fqrwPH9KMsUlH
                RZMRqmvhwwJV3odjZi2cyTiTsVqschoLHDNrYc+3VfyywZkMv2ygoslIM8Ymneg3oboWcpPNWC1WOY0931ZR
                0WSE4b9O9Jsw/NcJ1bVQ5X1YIDfZDL9sEIb/OlXeh+g3e76toqLJCMN/nWNmLXxIM8YmnTD819nzbZVjZi2k
                GWOTThj+61R5H/yywTGzFqq8DwusvlHlfVDRZITqWqjyPuQmm7Hn2yp/s+1f/LLBnm+rpBljk87qG2nG2KRz
                zKyF1WKV0wjVtXDMrIUPC5zJUNFkrL5xzKyF1WKV01gg+k2oroVjZi2cyQjVteCXDUJ1LYTqWlgtVjmN6Deh
                uhY+fFjgQ5X3Yc+3Vf5m279UeR9yk804ZtZC9JvoN8fMWtjzbZW/2fYvq2+sFqucRm6yGWcyzmQcM2sh+s0C
                KpqMMxmrb4Thv070G79scCbjmFkLx8xaWH3DLxuE4b+OXzbY822VBT58UNFkrBarnMbfbPuXBc5khOpaUNFk
                fMhNNmO1WOU0qrwPZzLOZFR5HxZYfSPNGJt0qrwPftkgN9mMPd9WSTPGJp3VYpXTOJOxWqxyGqtvqGgy/mbb
                v4Thv070mzD819nzbZUzGX7ZoMr7sPqGXzZYfWP1jTRjbNI5k/E32/5ltVjlNKLf/M22fwnDf50q70P0mzRj
                bNKJfuOXDVQ0GR9yk83ITTYj+s2ZjFBdC6vFKqdxzKyFDx9UNBlpxtiks/qGiibjmFkL0W9yk8344JcNcpPN
                iH6TZoxNOnu+rXLMrIUq78MxsxZWi1VOwy8brL7xN9v+JTfZDBVNxgILVHkfwvBf50xGqK6FY2Yt+GWDMPzX
                WX1jtVjlNMLwX8cvG3xYIFTXQpX3Yc+3VdKMsUnnTEaoroXVYpXT+Jtt/3LMrIU0Y2zSWS1WOY3VN/5m27+s
                vhH9JlTXQhj+60S/+Ztt/1LlffDLBsfMWjhm1sIxsxb2fFtlz7dVVt9Y4JhZC3+z7V9CdS34ZYPVYpXTOJOx
                QPQbv2zwN9v+RUWTsefbKmnG2KSzQJX34ZhZC7nJZkS/WX3DLxusFqucRhj+64Thv04Y/utEv0kzxiadMxlV
                3odjZi1UeR/+Ztu/hOpaCMN/ndxkM9KMsUknVNdClffhmFkLKpqM6Ddh+K9zzKyFBVaLVU4jN9mMKu9DmjE2
                6RwzayHNGJt0wvBfZ8+3VVaLVU4jVNfC32z7lzMZ0W/8skFushlh+K9T5X3ITTajyvuw59sqoboW0oyxSeeY
                WQt+2eCDXzYIw3+dMxnRbxZIM8Ymneg3ftkg+s1qscppRL85k+GXDUJ1LXyo8j6cyThm1kKV9+FMRvSbY2Yt
                LKCiydjzbZUPKpoMFU2GiiZjgQ/HzFo4ZtaCiiZjtVjlNFaLVU4j+k2oroUFFvjglw38soFfNlgtVjmNUF0L
                x8xaWCDNGJt0jpm1kGaMTTph+K/zN9v+JTfZjAX2fFulyvuw+sYxsxaqvA8fQnUtHDNr4UMY/ussEP3mb7b9
                y+obacbYpJObbMYxsxai36QZY5OOiiZDRZOx+saeb6vkJpsRqmthz7dV0oyxSSc32YwzGcfMWgjVtbBarHIa
                uclm5CaboaLJ2PNtlQ9V3oe/2fYvftlgtVjlNM5kpBljk84Hv2wQ/eaYWQuhuhaOmbWQZoxNOqtv7Pm2SvSb
                Mxmrb5zJ2PNtlVBdCyqaDBVNRvSbY2YthOG/Tm6yGatvhOpaCNW18Dfb/mXPt1VW38hNNiP6TRj+64Thv46K
                JqPK+7D6xgJ/s+1fPuQmm7HAmYw931ZJM8YmnQXC8F8nN9kMFU1GGP7rhOG/zpmMMPzX+XDMrIW/2fYve76t
                UuV9UNFkLBCqayE32Yw931Y5ZtbCarHKaRwzayHNGJt0wvBf55hZC2H4rxOqa2H1jWNmLfhlgw/Rb1aLVU4j
                zRibdI6ZtRD9ZvWNY2YthOpaWH3DLxt8OGbWwjGzFvyywYcq78MCftlg9Y0q74OKJiNU18LfbPuXD7nJZqQZ
                Y5OOXzb4m23/8uGYWQt+2WDPt1XOZKhoMhZIM8YmnTMZq8Uqp7HA32z7lyrvg182yE02I80Ym3RUNBl/s+1f
                QnUtpBljk86HKu9DlfchzRibdMLwX+eYWQt+2WD1jSrvwwILHDNrIVTXwgIqmozVN1bfCNW1sMBqscpp5Cab
                kWaMTTqrb4TqWvDLBiqaDBVNhoomwy8bnMlYLVY5jTD81/mbbf+Sm2zGhzD81/mbbf8SqmshN9mMDwuE4b9O
                brIZq8Uqp7FarHIaftmgyvvwN9v+5UzGAn7ZoMr7kJtsRvSbBY6ZtRCqayE32Yy/2fYvC6QZY5POhwXC8F9n
                9Q0VTcbqG2cyVt9IM8YmndVildMI1bWwWqxyGh9Wi1VOI80Ym3SOmbWwWqxyGqtv+GWD6Dd7vq2y59sqftlg
                9Y3VN85kqGgy/LLBAtFv9nxbpcr7oKLJCMN/neg3ZzJyk81YLVY5jQ9/s+1f/mbbv4Thv85qscpp/M22f1kt
                VjmNUF0Lq8Uqp+GXDfZ8WyUM/3Wi36hoMhYIw3+dMxkqmowzGWH4r7NarHIaftngmFkLoboWcpPNWC1WOY0q
                70OaMTbphOpa2PNtlSrvw5mM6Ddh+K8TqmvBLxv8AwUqf7M=
                """),
        ZlibFixture(
            data: .text, variant: "rle", firstBlockType: 2,
            outputCRC32: 0xBBD9_5C6C,
            base64:
                """
                eAEFwduhhCAMQMH/reIUYFMhBuHyiLLiqtXfmSrvw4djZi2sFqucxmqxymmsFqucRhj+66wWq5zG32z7lyrv
                Q6iuhQXSjLFJJ80Ym3SOmbWw+sYxsxYWOGbWwocq70MY/usssPrG6htV3ofVN1Q0GbnJZuz5tkqaMTbpqGgy
                cpPNqPI+RL9ZLVY5jTD81/HLBsfMWtjzbZU0Y2zS+Ztt/+KXDRZYfeODXzZYLVY5jdxkM8LwX0dFk7Hn2ypp
                xtikE/0mN9mMKu/DhwVUNBkqmowFFligyvvwIfrNnm+rhOpaCNW1kJtsxocq70Nushl/s+1fqrwPH9KMsUlH
                RZMRqmvhwwJV3odjZi2cyTiTsVqschoLHDNrYc+3VfyywZkMv2ygoslIM8Ymneg3oboWcpPNWC1WOY0931ZR
                0WSE4b9O9Jsw/NcJ1bVQ5X1YIDfZDL9sEIb/OlXeh+g3e76toqLJCMN/nWNmLXxIM8YmnTD819nzbZVjZi2k
                GWOTThj+61R5H/yywTGzFqq8DwusvlHlfVDRZITqWqjyPuQmm7Hn2yp/s+1f/LLBnm+rpBljk87qG2nG2KRz
                zKyF1WKV0wjVtXDMrIUPC5zJUNFkrL5xzKyF1WKV01gg+k2oroVjZi2cyQjVteCXDUJ1LYTqWlgtVjmN6Deh
                uhY+fFjgQ5X3Yc+3Vf5m279UeR9yk804ZtZC9JvoN8fMWtjzbZW/2fYvq2+sFqucRm6yGWcyzmQcM2sh+s0C
                KpqMMxmrb4Thv070G79scCbjmFkLx8xaWH3DLxuE4b+OXzbY822VBT58UNFkrBarnMbfbPuXBc5khOpaUNFk
                fMhNNmO1WOU0qrwPZzLOZFR5HxZYfSPNGJt0qrwPftkgN9mMPd9WSTPGJp3VYpXTOJOxWqxyGqtvqGgy/mbb
                v4Thv070mzD819nzbZUzGX7ZoMr7sPqGXzZYfWP1jTRjbNI5k/E32/5ltVjlNKLf/M22fwnDf50q70P0mzRj
                bNKJfuOXDVQ0GR9yk83ITTYj+s2ZjFBdC6vFKqdxzKyFDx9UNBlpxtiks/qGiibjmFkL0W9yk8344JcNcpPN
                iH6TZoxNOnu+rXLMrIUq78MxsxZWi1VOwy8brL7xN9v+JTfZDBVNxgILVHkfwvBf50xGqK6FY2Yt+GWDMPzX
                WX1jtVjlNMLwX8cvG3xYIFTXQpX3Yc+3VdKMsUnnTEaoroXVYpXT+Jtt/3LMrIU0Y2zSWS1WOY3VN/5m27+s
                vhH9JlTXQhj+60S/+Ztt/1LlffDLBsfMWjhm1sIxsxb2fFtlz7dVVt9Y4JhZC3+z7V9CdS34ZYPVYpXTOJOx
                QPQbv2zwN9v+RUWTsefbKmnG2KSzQJX34ZhZC7nJZkS/WX3DLxusFqucRhj+64Thv04Y/utEv0kzxiadMxlV
                3odjZi1UeR/+Ztu/hOpaCMN/ndxkM9KMsUknVNdClffhmFkLKpqM6Ddh+K9zzKyFBVaLVU4jN9mMKu9DmjE2
                6RwzayHNGJt0wvBfZ8+3VVaLVU4jVNfC32z7lzMZ0W/8skFushlh+K9T5X3ITTajyvuw59sqoboW0oyxSeeY
                WQt+2eCDXzYIw3+dMxnRbxZIM8Ymneg3ftkg+s1qscppRL85k+GXDUJ1LXyo8j6cyThm1kKV9+FMRvSbY2Yt
                LKCiydjzbZUPKpoMFU2GiiZjgQ/HzFo4ZtaCiiZjtVjlNFaLVU4j+k2oroUFFvjglw38soFfNlgtVjmNUF0L
                x8xaWCDNGJt0jpm1kGaMTTph+K/zN9v+JTfZjAX2fFulyvuw+sYxsxaqvA8fQnUtHDNr4UMY/ussEP3mb7b9
                y+obacbYpJObbMYxsxai36QZY5OOiiZDRZOx+saeb6vkJpsRqmthz7dV0oyxSSc32YwzGcfMWgjVtbBarHIa
                uclm5CaboaLJ2PNtlQ9V3oe/2fYvftlgtVjlNM5kpBljk84Hv2wQ/eaYWQuhuhaOmbWQZoxNOqtv7Pm2SvSb
                Mxmrb5zJ2PNtlVBdCyqaDBVNRvSbY2YthOG/Tm6yGatvhOpaCNW18Dfb/mXPt1VW38hNNiP6TRj+64Thv46K
                JqPK+7D6xgJ/s+1fPuQmm7HAmYw931ZJM8YmnQXC8F8nN9kMFU1GGP7rhOG/zpmMMPzX+XDMrIW/2fYve76t
                UuV9UNFkLBCqayE32Yw931Y5ZtbCarHKaRwzayHNGJt0wvBf55hZC2H4rxOqa2H1jWNmLfhlgw/Rb1aLVU4j
                zRibdI6ZtRD9ZvWNY2YthOpaWH3DLxt8OGbWwjGzFvyywYcq78MCftlg9Y0q74OKJiNU18LfbPuXD7nJZqQZ
                Y5OOXzb4m23/8uGYWQt+2WDPt1XOZKhoMhZIM8YmnTMZq8Uqp7HA32z7lyrvg182yE02I80Ym3RUNBl/s+1f
                QnUtpBljk86HKu9DlfchzRibdMLwX+eYWQt+2WD1jSrvwwILHDNrIVTXwgIqmozVN1bfCNW1sMBqscpp5Cab
                kWaMTTqrb4TqWvDLBiqaDBVNhoomwy8bnMlYLVY5jTD81/mbbf+Sm2zGhzD81/mbbf8SqmshN9mMDwuE4b9O
                brIZq8Uqp7FarHIaftmgyvvwN9v+5UzGAn7ZoMr7kJtsRvSbBY6ZtRCqayE32Yy/2fYvC6QZY5POhwXC8F9n
                9Q0VTcbqG2cyVt9IM8YmndVildMI1bWwWqxyGh9Wi1VOI80Ym3SOmbWwWqxyGqtv+GWD6Dd7vq2y59sqftlg
                9Y3VN85kqGgy/LLBAtFv9nxbpcr7oKLJCMN/neg3ZzJyk81YLVY5jQ9/s+1f/mbbv4Thv85qscpp/M22f1kt
                VjmNUF0Lq8Uqp+GXDfZ8WyUM/3Wi36hoMhYIw3+dMxkqmowzGWH4r7NarHIaftngmFkLoboWcpPNWC1WOY0q
                70OaMTbphOpa2PNtlSrvw5mM6Ddh+K8TqmvBLxv8AwUqf7M=
                """),
        ZlibFixture(
            data: .text, variant: "smallBlocks", firstBlockType: 2,
            outputCRC32: 0xBBD9_5C6C,
            base64:
                """
                eJxkkFESwiAMRP85RQ7gpShCi0KpVbR6egkbGVpnWkjI7gsk6M+bFN2yN1c6Wxf0w/7tw5pec8suOS53Cmwc
                Qiq2E9GUnYt6brvw0ihRkSBQYqzEcsoS/uspB0abyZKPerS0+M2GxuwrVe7SdrhietpVGu29uHMtS1OF7OcH
                FhQ02gO4V9daMQY6rCXFJ2XWg4AZYQVBZoCkm6Y6PBUe1ah42JeNKkiCGAZB97w3/5+NIEKyPXSnXSMqYPaJ
                1KPOh1qWw1QVxwuBcohsRBDM7KKgACfxxvOofyoxD9AMjxD/GBJc1fkvzzF2RwAVCqrm2CNZCQaJGArfylX6
                Y0t5Bkhq81TaI6edGzSbPivBbxISQivLKYslWvvsOUYhbiXVk7LyKLblcqzc4Mwx5u45rOh4g6e9pCFoMIh2
                lxi5tr/J4mg8sB5TYSy1l1pKDOv9te2CSav7fmAXr1eJMOafO4Wb3jeNCuyBSbESeLyd+xNrpYn5W0FzIky5
                az2r6FGsnG6H4CSr/9gskySIQRgG3nlv/l8zQbbVIlw4pII3LYbKgR90pmlSLeg+zQnG6zoVA/iTYmDEJi+k
                l2B9+1YRKXPCaD5bIoYTwoAh8FR+nW+UccEC0LIkkUrE+7t+vHl9+q2BMJViPjyJ1/AekLE63VD4cUJPWLdU
                nyk+6zRtYN9Il7vZbjqfinkqPlgH+iM811mmKoaARR0UT4PJwbXdooGBLjsHBtcBp38Ct2IVD+dXMCZt7GvQ
                Ekl14eO2LNDVbdYU4P9X1ThmhKbWsYLmVWQN0LHOHZGvBS8uJSwod4LktzeHYqVy6Wk5ZDD4o6yOvYwxgx9G
                MEU2/u+X51d3GeRADMIw8M57+b92BYk9BnrbrdRQSDw2Woq2YgFUPahmuRtcd3+boWDpUqO7ovrxP+793nDL
                5osJXJk5B0hdv0aQCN3XYDKDkeppGjlU3H01TMNU+qOwcj6bXtHvplnKpB61YctVrgSWh9brAa2DFW3NOgVy
                EinrZH/WD/sPFNU3Bwl5dLmTrXaeh5jSQUGPUxkcYtjMTSClrbQL0mHEs7wjHBN3gssJxxjvfoHcBWFulPcO
                tAErOpy0LomhJGL/Gx+jR9MXGujeEc5mnl6h8NKQzXbqSugP2VtjkstU8t4AxtTlLVmJ3OE6ayOovO5YOZeg
                ctgb9b0K/gAFKn+z
                """),
        ZlibFixture(
            data: .noise, variant: "level0", firstBlockType: 0,
            outputCRC32: 0x4202_09EF,
            base64:
                """
                eAEBsARP+4wh/3Lt1xjZThOVE9wbY/yTBva/nOUG4G2wCgWf8nWHjjSzvLMr4gLAoVGMgCO57G1vPWQOnCPs
                FwdQAz8BhTbfOlxxT+wACQDHr4VZoPEwU9iVX9ONcILKg9XtD9HTZPdLMWi6sytEhZ7p1l4owx68VzeI4lCm
                +f880ZwH9xdpT39seusXGQ3HPjZYiFPnECAFWbgzfHuqLUl95iAOCZ5e7UR92rGDuz+/zeLOuxVd+Pk0xb+q
                qOvNww+lUaxhWZ2u8EuBGSGmZTjoTCj2BV28TACJfXLlFlbBwLCSatf0g9mqu9Xnqyavwr1uj5xuaeIW9dtm
                a+qCQF3H393gI8aJh6il0LLZlJh1hiD6RwrX5W9Lk3Eub4cErV4LJ6X8JybQI+FpE2NHlWh5O2KNkAE6bjmJ
                l1MsfRrJvAtqUhxv0sxUR5mhAZYgtM+Vvge3Plws+ZbPcdm9+MsZtp1+OfcGknGwV/Zq3LFxwAgHTDnmwMHC
                kREiLZ4Zya3mucMNFjk7s/OcqFhuv7aEazT1zFHgRMxSVvvid/Lbr3O2t04k5N9S6F9PgqXCnFSXPZoq2DTO
                TrGWl6+i/RtZM4rytnl+lYZnmYWf2jM7ZmIb0wnRM3eChsiMS3eyn+EALw77bYB2h0hB4GlkiarypsY3IpZV
                Vp6p5HNwTIiAgbCdodZYYZqNZE/5lps9AjI6NF8tfhOE2/Pi5NR799VvHctE/5OaGNCSvGfg18ZbXfZg4uPi
                5BlyO7x2MFt4t+QesY4udaIJiKp/w/1wnM2rsj9a+hhBLJlZZ8I9Q4I+GIxIGBtW8YXshJGlpr84b1RGy10r
                eqHWiSXdX7GOjoJEPYh6fo4Aozb46aSUGxJaj4v8gy5ffC96dxXnRZETmp4LZ0sPdkZ9nd+AWn3coaWWWMlm
                uh9LT6QoCPCxpoqfX83gJYZkPChYD01cGlpdap+FKpyJEoZNPw+uEq0jaqi/W+idm7JZv6FiSUUj7b+/5OoY
                vVKQpEKDBP3n8WIrz/aNeU4GtxVYrq9rq1DuPrybX4tjzfIdRajf7wU1ukYqPDyLzn7L6Qy4zqsnWbNTev69
                eSSxjmpv5nh8BTGEM9HIPhW2vUZN8/iYAlH1lnUSQ9vdmbi+Ath1qJt+nRZo3tRtD555gbgkpONnwN7uHJmj
                kKxZmNlemIxGRQkxymBnl6ByHWzTorj1idMNyxTBKla34P0LOPXGZSlwPqT3kIVIrzXMTJSExyNhPdB0Xtzb
                lCVxHccxP3s2Kxe1sPVyTyFzUUPTHNVoZkOdoJAm48SVs1ZRhR61zzkkMAULHH7eWMK9GbfDDrT2COwW2cJR
                /5E6hzD+Vs7ZpOqzx2/EK0ondnLnseGmwwuGIsoFjJuiwJH9U+gxA7KxV5mSkkbxqsRmZ0V5zxWs3Zc2U87c
                O8ZakK9R/AfLcpZC2QAu+UkXaGqUy8fk1IikEiBK6gipgpcPlsTyMZ8xjINrp/k1qqlMWvIQU3hbb5fP2UcS
                alzwruapQoIF9gbM8kgfrFKNeKYPeazV4yB48KZY4v5YzCXZ7uBjZN1JCoxnaAL/qGmbr18fOQV+nrzmcJay
                ZixyPE/+NMFQENJ6X1s=
                """),
        ZlibFixture(
            data: .noise, variant: "level1", firstBlockType: 0,
            outputCRC32: 0x4202_09EF,
            base64:
                """
                eAEBsARP+4wh/3Lt1xjZThOVE9wbY/yTBva/nOUG4G2wCgWf8nWHjjSzvLMr4gLAoVGMgCO57G1vPWQOnCPs
                FwdQAz8BhTbfOlxxT+wACQDHr4VZoPEwU9iVX9ONcILKg9XtD9HTZPdLMWi6sytEhZ7p1l4owx68VzeI4lCm
                +f880ZwH9xdpT39seusXGQ3HPjZYiFPnECAFWbgzfHuqLUl95iAOCZ5e7UR92rGDuz+/zeLOuxVd+Pk0xb+q
                qOvNww+lUaxhWZ2u8EuBGSGmZTjoTCj2BV28TACJfXLlFlbBwLCSatf0g9mqu9Xnqyavwr1uj5xuaeIW9dtm
                a+qCQF3H393gI8aJh6il0LLZlJh1hiD6RwrX5W9Lk3Eub4cErV4LJ6X8JybQI+FpE2NHlWh5O2KNkAE6bjmJ
                l1MsfRrJvAtqUhxv0sxUR5mhAZYgtM+Vvge3Plws+ZbPcdm9+MsZtp1+OfcGknGwV/Zq3LFxwAgHTDnmwMHC
                kREiLZ4Zya3mucMNFjk7s/OcqFhuv7aEazT1zFHgRMxSVvvid/Lbr3O2t04k5N9S6F9PgqXCnFSXPZoq2DTO
                TrGWl6+i/RtZM4rytnl+lYZnmYWf2jM7ZmIb0wnRM3eChsiMS3eyn+EALw77bYB2h0hB4GlkiarypsY3IpZV
                Vp6p5HNwTIiAgbCdodZYYZqNZE/5lps9AjI6NF8tfhOE2/Pi5NR799VvHctE/5OaGNCSvGfg18ZbXfZg4uPi
                5BlyO7x2MFt4t+QesY4udaIJiKp/w/1wnM2rsj9a+hhBLJlZZ8I9Q4I+GIxIGBtW8YXshJGlpr84b1RGy10r
                eqHWiSXdX7GOjoJEPYh6fo4Aozb46aSUGxJaj4v8gy5ffC96dxXnRZETmp4LZ0sPdkZ9nd+AWn3coaWWWMlm
                uh9LT6QoCPCxpoqfX83gJYZkPChYD01cGlpdap+FKpyJEoZNPw+uEq0jaqi/W+idm7JZv6FiSUUj7b+/5OoY
                vVKQpEKDBP3n8WIrz/aNeU4GtxVYrq9rq1DuPrybX4tjzfIdRajf7wU1ukYqPDyLzn7L6Qy4zqsnWbNTev69
                eSSxjmpv5nh8BTGEM9HIPhW2vUZN8/iYAlH1lnUSQ9vdmbi+Ath1qJt+nRZo3tRtD555gbgkpONnwN7uHJmj
                kKxZmNlemIxGRQkxymBnl6ByHWzTorj1idMNyxTBKla34P0LOPXGZSlwPqT3kIVIrzXMTJSExyNhPdB0Xtzb
                lCVxHccxP3s2Kxe1sPVyTyFzUUPTHNVoZkOdoJAm48SVs1ZRhR61zzkkMAULHH7eWMK9GbfDDrT2COwW2cJR
                /5E6hzD+Vs7ZpOqzx2/EK0ondnLnseGmwwuGIsoFjJuiwJH9U+gxA7KxV5mSkkbxqsRmZ0V5zxWs3Zc2U87c
                O8ZakK9R/AfLcpZC2QAu+UkXaGqUy8fk1IikEiBK6gipgpcPlsTyMZ8xjINrp/k1qqlMWvIQU3hbb5fP2UcS
                alzwruapQoIF9gbM8kgfrFKNeKYPeazV4yB48KZY4v5YzCXZ7uBjZN1JCoxnaAL/qGmbr18fOQV+nrzmcJay
                ZixyPE/+NMFQENJ6X1s=
                """),
        ZlibFixture(
            data: .noise, variant: "level6", firstBlockType: 0,
            outputCRC32: 0x4202_09EF,
            base64:
                """
                eJwBsARP+4wh/3Lt1xjZThOVE9wbY/yTBva/nOUG4G2wCgWf8nWHjjSzvLMr4gLAoVGMgCO57G1vPWQOnCPs
                FwdQAz8BhTbfOlxxT+wACQDHr4VZoPEwU9iVX9ONcILKg9XtD9HTZPdLMWi6sytEhZ7p1l4owx68VzeI4lCm
                +f880ZwH9xdpT39seusXGQ3HPjZYiFPnECAFWbgzfHuqLUl95iAOCZ5e7UR92rGDuz+/zeLOuxVd+Pk0xb+q
                qOvNww+lUaxhWZ2u8EuBGSGmZTjoTCj2BV28TACJfXLlFlbBwLCSatf0g9mqu9Xnqyavwr1uj5xuaeIW9dtm
                a+qCQF3H393gI8aJh6il0LLZlJh1hiD6RwrX5W9Lk3Eub4cErV4LJ6X8JybQI+FpE2NHlWh5O2KNkAE6bjmJ
                l1MsfRrJvAtqUhxv0sxUR5mhAZYgtM+Vvge3Plws+ZbPcdm9+MsZtp1+OfcGknGwV/Zq3LFxwAgHTDnmwMHC
                kREiLZ4Zya3mucMNFjk7s/OcqFhuv7aEazT1zFHgRMxSVvvid/Lbr3O2t04k5N9S6F9PgqXCnFSXPZoq2DTO
                TrGWl6+i/RtZM4rytnl+lYZnmYWf2jM7ZmIb0wnRM3eChsiMS3eyn+EALw77bYB2h0hB4GlkiarypsY3IpZV
                Vp6p5HNwTIiAgbCdodZYYZqNZE/5lps9AjI6NF8tfhOE2/Pi5NR799VvHctE/5OaGNCSvGfg18ZbXfZg4uPi
                5BlyO7x2MFt4t+QesY4udaIJiKp/w/1wnM2rsj9a+hhBLJlZZ8I9Q4I+GIxIGBtW8YXshJGlpr84b1RGy10r
                eqHWiSXdX7GOjoJEPYh6fo4Aozb46aSUGxJaj4v8gy5ffC96dxXnRZETmp4LZ0sPdkZ9nd+AWn3coaWWWMlm
                uh9LT6QoCPCxpoqfX83gJYZkPChYD01cGlpdap+FKpyJEoZNPw+uEq0jaqi/W+idm7JZv6FiSUUj7b+/5OoY
                vVKQpEKDBP3n8WIrz/aNeU4GtxVYrq9rq1DuPrybX4tjzfIdRajf7wU1ukYqPDyLzn7L6Qy4zqsnWbNTev69
                eSSxjmpv5nh8BTGEM9HIPhW2vUZN8/iYAlH1lnUSQ9vdmbi+Ath1qJt+nRZo3tRtD555gbgkpONnwN7uHJmj
                kKxZmNlemIxGRQkxymBnl6ByHWzTorj1idMNyxTBKla34P0LOPXGZSlwPqT3kIVIrzXMTJSExyNhPdB0Xtzb
                lCVxHccxP3s2Kxe1sPVyTyFzUUPTHNVoZkOdoJAm48SVs1ZRhR61zzkkMAULHH7eWMK9GbfDDrT2COwW2cJR
                /5E6hzD+Vs7ZpOqzx2/EK0ondnLnseGmwwuGIsoFjJuiwJH9U+gxA7KxV5mSkkbxqsRmZ0V5zxWs3Zc2U87c
                O8ZakK9R/AfLcpZC2QAu+UkXaGqUy8fk1IikEiBK6gipgpcPlsTyMZ8xjINrp/k1qqlMWvIQU3hbb5fP2UcS
                alzwruapQoIF9gbM8kgfrFKNeKYPeazV4yB48KZY4v5YzCXZ7uBjZN1JCoxnaAL/qGmbr18fOQV+nrzmcJay
                ZixyPE/+NMFQENJ6X1s=
                """),
        ZlibFixture(
            data: .noise, variant: "level9", firstBlockType: 0,
            outputCRC32: 0x4202_09EF,
            base64:
                """
                eNoBsARP+4wh/3Lt1xjZThOVE9wbY/yTBva/nOUG4G2wCgWf8nWHjjSzvLMr4gLAoVGMgCO57G1vPWQOnCPs
                FwdQAz8BhTbfOlxxT+wACQDHr4VZoPEwU9iVX9ONcILKg9XtD9HTZPdLMWi6sytEhZ7p1l4owx68VzeI4lCm
                +f880ZwH9xdpT39seusXGQ3HPjZYiFPnECAFWbgzfHuqLUl95iAOCZ5e7UR92rGDuz+/zeLOuxVd+Pk0xb+q
                qOvNww+lUaxhWZ2u8EuBGSGmZTjoTCj2BV28TACJfXLlFlbBwLCSatf0g9mqu9Xnqyavwr1uj5xuaeIW9dtm
                a+qCQF3H393gI8aJh6il0LLZlJh1hiD6RwrX5W9Lk3Eub4cErV4LJ6X8JybQI+FpE2NHlWh5O2KNkAE6bjmJ
                l1MsfRrJvAtqUhxv0sxUR5mhAZYgtM+Vvge3Plws+ZbPcdm9+MsZtp1+OfcGknGwV/Zq3LFxwAgHTDnmwMHC
                kREiLZ4Zya3mucMNFjk7s/OcqFhuv7aEazT1zFHgRMxSVvvid/Lbr3O2t04k5N9S6F9PgqXCnFSXPZoq2DTO
                TrGWl6+i/RtZM4rytnl+lYZnmYWf2jM7ZmIb0wnRM3eChsiMS3eyn+EALw77bYB2h0hB4GlkiarypsY3IpZV
                Vp6p5HNwTIiAgbCdodZYYZqNZE/5lps9AjI6NF8tfhOE2/Pi5NR799VvHctE/5OaGNCSvGfg18ZbXfZg4uPi
                5BlyO7x2MFt4t+QesY4udaIJiKp/w/1wnM2rsj9a+hhBLJlZZ8I9Q4I+GIxIGBtW8YXshJGlpr84b1RGy10r
                eqHWiSXdX7GOjoJEPYh6fo4Aozb46aSUGxJaj4v8gy5ffC96dxXnRZETmp4LZ0sPdkZ9nd+AWn3coaWWWMlm
                uh9LT6QoCPCxpoqfX83gJYZkPChYD01cGlpdap+FKpyJEoZNPw+uEq0jaqi/W+idm7JZv6FiSUUj7b+/5OoY
                vVKQpEKDBP3n8WIrz/aNeU4GtxVYrq9rq1DuPrybX4tjzfIdRajf7wU1ukYqPDyLzn7L6Qy4zqsnWbNTev69
                eSSxjmpv5nh8BTGEM9HIPhW2vUZN8/iYAlH1lnUSQ9vdmbi+Ath1qJt+nRZo3tRtD555gbgkpONnwN7uHJmj
                kKxZmNlemIxGRQkxymBnl6ByHWzTorj1idMNyxTBKla34P0LOPXGZSlwPqT3kIVIrzXMTJSExyNhPdB0Xtzb
                lCVxHccxP3s2Kxe1sPVyTyFzUUPTHNVoZkOdoJAm48SVs1ZRhR61zzkkMAULHH7eWMK9GbfDDrT2COwW2cJR
                /5E6hzD+Vs7ZpOqzx2/EK0ondnLnseGmwwuGIsoFjJuiwJH9U+gxA7KxV5mSkkbxqsRmZ0V5zxWs3Zc2U87c
                O8ZakK9R/AfLcpZC2QAu+UkXaGqUy8fk1IikEiBK6gipgpcPlsTyMZ8xjINrp/k1qqlMWvIQU3hbb5fP2UcS
                alzwruapQoIF9gbM8kgfrFKNeKYPeazV4yB48KZY4v5YzCXZ7uBjZN1JCoxnaAL/qGmbr18fOQV+nrzmcJay
                ZixyPE/+NMFQENJ6X1s=
                """),
        ZlibFixture(
            data: .noise, variant: "fixed", firstBlockType: 0,
            outputCRC32: 0x4202_09EF,
            base64:
                """
                eAEBsARP+4wh/3Lt1xjZThOVE9wbY/yTBva/nOUG4G2wCgWf8nWHjjSzvLMr4gLAoVGMgCO57G1vPWQOnCPs
                FwdQAz8BhTbfOlxxT+wACQDHr4VZoPEwU9iVX9ONcILKg9XtD9HTZPdLMWi6sytEhZ7p1l4owx68VzeI4lCm
                +f880ZwH9xdpT39seusXGQ3HPjZYiFPnECAFWbgzfHuqLUl95iAOCZ5e7UR92rGDuz+/zeLOuxVd+Pk0xb+q
                qOvNww+lUaxhWZ2u8EuBGSGmZTjoTCj2BV28TACJfXLlFlbBwLCSatf0g9mqu9Xnqyavwr1uj5xuaeIW9dtm
                a+qCQF3H393gI8aJh6il0LLZlJh1hiD6RwrX5W9Lk3Eub4cErV4LJ6X8JybQI+FpE2NHlWh5O2KNkAE6bjmJ
                l1MsfRrJvAtqUhxv0sxUR5mhAZYgtM+Vvge3Plws+ZbPcdm9+MsZtp1+OfcGknGwV/Zq3LFxwAgHTDnmwMHC
                kREiLZ4Zya3mucMNFjk7s/OcqFhuv7aEazT1zFHgRMxSVvvid/Lbr3O2t04k5N9S6F9PgqXCnFSXPZoq2DTO
                TrGWl6+i/RtZM4rytnl+lYZnmYWf2jM7ZmIb0wnRM3eChsiMS3eyn+EALw77bYB2h0hB4GlkiarypsY3IpZV
                Vp6p5HNwTIiAgbCdodZYYZqNZE/5lps9AjI6NF8tfhOE2/Pi5NR799VvHctE/5OaGNCSvGfg18ZbXfZg4uPi
                5BlyO7x2MFt4t+QesY4udaIJiKp/w/1wnM2rsj9a+hhBLJlZZ8I9Q4I+GIxIGBtW8YXshJGlpr84b1RGy10r
                eqHWiSXdX7GOjoJEPYh6fo4Aozb46aSUGxJaj4v8gy5ffC96dxXnRZETmp4LZ0sPdkZ9nd+AWn3coaWWWMlm
                uh9LT6QoCPCxpoqfX83gJYZkPChYD01cGlpdap+FKpyJEoZNPw+uEq0jaqi/W+idm7JZv6FiSUUj7b+/5OoY
                vVKQpEKDBP3n8WIrz/aNeU4GtxVYrq9rq1DuPrybX4tjzfIdRajf7wU1ukYqPDyLzn7L6Qy4zqsnWbNTev69
                eSSxjmpv5nh8BTGEM9HIPhW2vUZN8/iYAlH1lnUSQ9vdmbi+Ath1qJt+nRZo3tRtD555gbgkpONnwN7uHJmj
                kKxZmNlemIxGRQkxymBnl6ByHWzTorj1idMNyxTBKla34P0LOPXGZSlwPqT3kIVIrzXMTJSExyNhPdB0Xtzb
                lCVxHccxP3s2Kxe1sPVyTyFzUUPTHNVoZkOdoJAm48SVs1ZRhR61zzkkMAULHH7eWMK9GbfDDrT2COwW2cJR
                /5E6hzD+Vs7ZpOqzx2/EK0ondnLnseGmwwuGIsoFjJuiwJH9U+gxA7KxV5mSkkbxqsRmZ0V5zxWs3Zc2U87c
                O8ZakK9R/AfLcpZC2QAu+UkXaGqUy8fk1IikEiBK6gipgpcPlsTyMZ8xjINrp/k1qqlMWvIQU3hbb5fP2UcS
                alzwruapQoIF9gbM8kgfrFKNeKYPeazV4yB48KZY4v5YzCXZ7uBjZN1JCoxnaAL/qGmbr18fOQV+nrzmcJay
                ZixyPE/+NMFQENJ6X1s=
                """),
        ZlibFixture(
            data: .noise, variant: "huffmanOnly", firstBlockType: 0,
            outputCRC32: 0x4202_09EF,
            base64:
                """
                eAEBsARP+4wh/3Lt1xjZThOVE9wbY/yTBva/nOUG4G2wCgWf8nWHjjSzvLMr4gLAoVGMgCO57G1vPWQOnCPs
                FwdQAz8BhTbfOlxxT+wACQDHr4VZoPEwU9iVX9ONcILKg9XtD9HTZPdLMWi6sytEhZ7p1l4owx68VzeI4lCm
                +f880ZwH9xdpT39seusXGQ3HPjZYiFPnECAFWbgzfHuqLUl95iAOCZ5e7UR92rGDuz+/zeLOuxVd+Pk0xb+q
                qOvNww+lUaxhWZ2u8EuBGSGmZTjoTCj2BV28TACJfXLlFlbBwLCSatf0g9mqu9Xnqyavwr1uj5xuaeIW9dtm
                a+qCQF3H393gI8aJh6il0LLZlJh1hiD6RwrX5W9Lk3Eub4cErV4LJ6X8JybQI+FpE2NHlWh5O2KNkAE6bjmJ
                l1MsfRrJvAtqUhxv0sxUR5mhAZYgtM+Vvge3Plws+ZbPcdm9+MsZtp1+OfcGknGwV/Zq3LFxwAgHTDnmwMHC
                kREiLZ4Zya3mucMNFjk7s/OcqFhuv7aEazT1zFHgRMxSVvvid/Lbr3O2t04k5N9S6F9PgqXCnFSXPZoq2DTO
                TrGWl6+i/RtZM4rytnl+lYZnmYWf2jM7ZmIb0wnRM3eChsiMS3eyn+EALw77bYB2h0hB4GlkiarypsY3IpZV
                Vp6p5HNwTIiAgbCdodZYYZqNZE/5lps9AjI6NF8tfhOE2/Pi5NR799VvHctE/5OaGNCSvGfg18ZbXfZg4uPi
                5BlyO7x2MFt4t+QesY4udaIJiKp/w/1wnM2rsj9a+hhBLJlZZ8I9Q4I+GIxIGBtW8YXshJGlpr84b1RGy10r
                eqHWiSXdX7GOjoJEPYh6fo4Aozb46aSUGxJaj4v8gy5ffC96dxXnRZETmp4LZ0sPdkZ9nd+AWn3coaWWWMlm
                uh9LT6QoCPCxpoqfX83gJYZkPChYD01cGlpdap+FKpyJEoZNPw+uEq0jaqi/W+idm7JZv6FiSUUj7b+/5OoY
                vVKQpEKDBP3n8WIrz/aNeU4GtxVYrq9rq1DuPrybX4tjzfIdRajf7wU1ukYqPDyLzn7L6Qy4zqsnWbNTev69
                eSSxjmpv5nh8BTGEM9HIPhW2vUZN8/iYAlH1lnUSQ9vdmbi+Ath1qJt+nRZo3tRtD555gbgkpONnwN7uHJmj
                kKxZmNlemIxGRQkxymBnl6ByHWzTorj1idMNyxTBKla34P0LOPXGZSlwPqT3kIVIrzXMTJSExyNhPdB0Xtzb
                lCVxHccxP3s2Kxe1sPVyTyFzUUPTHNVoZkOdoJAm48SVs1ZRhR61zzkkMAULHH7eWMK9GbfDDrT2COwW2cJR
                /5E6hzD+Vs7ZpOqzx2/EK0ondnLnseGmwwuGIsoFjJuiwJH9U+gxA7KxV5mSkkbxqsRmZ0V5zxWs3Zc2U87c
                O8ZakK9R/AfLcpZC2QAu+UkXaGqUy8fk1IikEiBK6gipgpcPlsTyMZ8xjINrp/k1qqlMWvIQU3hbb5fP2UcS
                alzwruapQoIF9gbM8kgfrFKNeKYPeazV4yB48KZY4v5YzCXZ7uBjZN1JCoxnaAL/qGmbr18fOQV+nrzmcJay
                ZixyPE/+NMFQENJ6X1s=
                """),
        ZlibFixture(
            data: .noise, variant: "rle", firstBlockType: 0,
            outputCRC32: 0x4202_09EF,
            base64:
                """
                eAEBsARP+4wh/3Lt1xjZThOVE9wbY/yTBva/nOUG4G2wCgWf8nWHjjSzvLMr4gLAoVGMgCO57G1vPWQOnCPs
                FwdQAz8BhTbfOlxxT+wACQDHr4VZoPEwU9iVX9ONcILKg9XtD9HTZPdLMWi6sytEhZ7p1l4owx68VzeI4lCm
                +f880ZwH9xdpT39seusXGQ3HPjZYiFPnECAFWbgzfHuqLUl95iAOCZ5e7UR92rGDuz+/zeLOuxVd+Pk0xb+q
                qOvNww+lUaxhWZ2u8EuBGSGmZTjoTCj2BV28TACJfXLlFlbBwLCSatf0g9mqu9Xnqyavwr1uj5xuaeIW9dtm
                a+qCQF3H393gI8aJh6il0LLZlJh1hiD6RwrX5W9Lk3Eub4cErV4LJ6X8JybQI+FpE2NHlWh5O2KNkAE6bjmJ
                l1MsfRrJvAtqUhxv0sxUR5mhAZYgtM+Vvge3Plws+ZbPcdm9+MsZtp1+OfcGknGwV/Zq3LFxwAgHTDnmwMHC
                kREiLZ4Zya3mucMNFjk7s/OcqFhuv7aEazT1zFHgRMxSVvvid/Lbr3O2t04k5N9S6F9PgqXCnFSXPZoq2DTO
                TrGWl6+i/RtZM4rytnl+lYZnmYWf2jM7ZmIb0wnRM3eChsiMS3eyn+EALw77bYB2h0hB4GlkiarypsY3IpZV
                Vp6p5HNwTIiAgbCdodZYYZqNZE/5lps9AjI6NF8tfhOE2/Pi5NR799VvHctE/5OaGNCSvGfg18ZbXfZg4uPi
                5BlyO7x2MFt4t+QesY4udaIJiKp/w/1wnM2rsj9a+hhBLJlZZ8I9Q4I+GIxIGBtW8YXshJGlpr84b1RGy10r
                eqHWiSXdX7GOjoJEPYh6fo4Aozb46aSUGxJaj4v8gy5ffC96dxXnRZETmp4LZ0sPdkZ9nd+AWn3coaWWWMlm
                uh9LT6QoCPCxpoqfX83gJYZkPChYD01cGlpdap+FKpyJEoZNPw+uEq0jaqi/W+idm7JZv6FiSUUj7b+/5OoY
                vVKQpEKDBP3n8WIrz/aNeU4GtxVYrq9rq1DuPrybX4tjzfIdRajf7wU1ukYqPDyLzn7L6Qy4zqsnWbNTev69
                eSSxjmpv5nh8BTGEM9HIPhW2vUZN8/iYAlH1lnUSQ9vdmbi+Ath1qJt+nRZo3tRtD555gbgkpONnwN7uHJmj
                kKxZmNlemIxGRQkxymBnl6ByHWzTorj1idMNyxTBKla34P0LOPXGZSlwPqT3kIVIrzXMTJSExyNhPdB0Xtzb
                lCVxHccxP3s2Kxe1sPVyTyFzUUPTHNVoZkOdoJAm48SVs1ZRhR61zzkkMAULHH7eWMK9GbfDDrT2COwW2cJR
                /5E6hzD+Vs7ZpOqzx2/EK0ondnLnseGmwwuGIsoFjJuiwJH9U+gxA7KxV5mSkkbxqsRmZ0V5zxWs3Zc2U87c
                O8ZakK9R/AfLcpZC2QAu+UkXaGqUy8fk1IikEiBK6gipgpcPlsTyMZ8xjINrp/k1qqlMWvIQU3hbb5fP2UcS
                alzwruapQoIF9gbM8kgfrFKNeKYPeazV4yB48KZY4v5YzCXZ7uBjZN1JCoxnaAL/qGmbr18fOQV+nrzmcJay
                ZixyPE/+NMFQENJ6X1s=
                """),
        ZlibFixture(
            data: .noise, variant: "smallBlocks", firstBlockType: 0,
            outputCRC32: 0x4202_09EF,
            base64:
                """
                eJwAfwCA/4wh/3Lt1xjZThOVE9wbY/yTBva/nOUG4G2wCgWf8nWHjjSzvLMr4gLAoVGMgCO57G1vPWQOnCPs
                FwdQAz8BhTbfOlxxT+wACQDHr4VZoPEwU9iVX9ONcILKg9XtD9HTZPdLMWi6sytEhZ7p1l4owx68VzeI4lCm
                +f880ZwH9xcAfwCA/2lPf2x66xcZDcc+NliIU+cQIAVZuDN8e6otSX3mIA4Jnl7tRH3asYO7P7/N4s67FV34
                +TTFv6qo683DD6VRrGFZna7wS4EZIaZlOOhMKPYFXbxMAIl9cuUWVsHAsJJq1/SD2aq71eerJq/CvW6PnG5p
                4hb122Zr6oJAXcff3eAAfwCA/yPGiYeopdCy2ZSYdYYg+kcK1+VvS5NxLm+HBK1eCyel/Ccm0CPhaRNjR5Vo
                eTtijZABOm45iZdTLH0aybwLalIcb9LMVEeZoQGWILTPlb4Htz5cLPmWz3HZvfjLGbadfjn3BpJxsFf2atyx
                ccAIB0w55sDBwpERIi2eGcmt5rkAfwCA/8MNFjk7s/OcqFhuv7aEazT1zFHgRMxSVvvid/Lbr3O2t04k5N9S
                6F9PgqXCnFSXPZoq2DTOTrGWl6+i/RtZM4rytnl+lYZnmYWf2jM7ZmIb0wnRM3eChsiMS3eyn+EALw77bYB2
                h0hB4GlkiarypsY3IpZVVp6p5HNwTIiAgbAAfwCA/52h1lhhmo1kT/mWmz0CMjo0Xy1+E4Tb8+Lk1Hv31W8d
                y0T/k5oY0JK8Z+DXxltd9mDi4+LkGXI7vHYwW3i35B6xji51ogmIqn/D/XCczauyP1r6GEEsmVlnwj1Dgj4Y
                jEgYG1bxheyEkaWmvzhvVEbLXSt6odaJJd1fsY6OgkQAfwCA/z2Ien6OAKM2+OmklBsSWo+L/IMuX3wvencV
                50WRE5qeC2dLD3ZGfZ3fgFp93KGllljJZrofS0+kKAjwsaaKn1/N4CWGZDwoWA9NXBpaXWqfhSqciRKGTT8P
                rhKtI2qov1vonZuyWb+hYklFI+2/v+TqGL1SkKRCgwT95/FiK88AfwCA//aNeU4GtxVYrq9rq1DuPrybX4tj
                zfIdRajf7wU1ukYqPDyLzn7L6Qy4zqsnWbNTev69eSSxjmpv5nh8BTGEM9HIPhW2vUZN8/iYAlH1lnUSQ9vd
                mbi+Ath1qJt+nRZo3tRtD555gbgkpONnwN7uHJmjkKxZmNlemIxGRQkxymAAfwCA/2eXoHIdbNOiuPWJ0w3L
                FMEqVrfg/Qs49cZlKXA+pPeQhUivNcxMlITHI2E90HRe3NuUJXEdxzE/ezYrF7Ww9XJPIXNRQ9Mc1WhmQ52g
                kCbjxJWzVlGFHrXPOSQwBQscft5Ywr0Zt8MOtPYI7BbZwlH/kTqHMP5Wztmk6rPHb8QAfwCA/ytKJ3Zy57Hh
                psMLhiLKBYybosCR/VPoMQOysVeZkpJG8arEZmdFec8VrN2XNlPO3DvGWpCvUfwHy3KWQtkALvlJF2hqlMvH
                5NSIpBIgSuoIqYKXD5bE8jGfMYyDa6f5NaqpTFryEFN4W2+Xz9lHEmpc8K7mqUKCBfYGzPJIH6wBOQDG/1KN
                eKYPeazV4yB48KZY4v5YzCXZ7uBjZN1JCoxnaAL/qGmbr18fOQV+nrzmcJayZixyPE/+NMFQENJ6X1s=
                """),
        ZlibFixture(
            data: .gradient, variant: "level0", firstBlockType: 0,
            outputCRC32: 0xA918_8010,
            base64:
                """
                eAEBIBDf7wAAAP//AQL+/wIE/f8DBvz/BAj7/wUK+v8GDPn/Bw74/wgQ9/8JEvb/ChT1/wsW9P8MGPP/DRry
                /w4c8f8PHvD/ECDv/xEi7v8SJO3/Eybs/xQo6/8VKur/Fizp/xcu6P8YMOf/GTLm/xo05f8bNuT/HDjj/x06
                4v8ePOH/Hz7g/wEBAf//AgP+/wMF/f8EB/z/BQn7/wYL+v8HDfn/CA/4/wkR9/8KE/b/CxX1/wwX9P8NGfP/
                Dhvy/w8d8f8QH/D/ESHv/xIj7v8TJe3/FCfs/xUp6/8WK+r/Fy3p/xgv6P8ZMef/GjPm/xs15f8cN+T/HTnj
                /x474v8fPeH/ID/g/wICAv//AwT+/wQG/f8FCPz/Bgr7/wcM+v8IDvn/CRD4/woS9/8LFPb/DBb1/w0Y9P8O
                GvP/Dxzy/xAe8f8RIPD/EiLv/xMk7v8UJu3/FSjs/xYq6/8XLOr/GC7p/xkw6P8aMuf/GzTm/xw25f8dOOT/
                Hjrj/x884v8gPuH/IUDg/wMDA///BAX+/wUH/f8GCfz/Bwv7/wgN+v8JD/n/ChH4/wsT9/8MFfb/DRf1/w4Z
                9P8PG/P/EB3y/xEf8f8SIfD/EyPv/xQl7v8VJ+3/Fins/xcr6/8YLer/GS/p/xox6P8bM+f/HDXm/x035f8e
                OeT/Hzvj/yA94v8hP+H/IkHg/wQEBP//BQb+/wYI/f8HCvz/CAz7/wkO+v8KEPn/CxL4/wwU9/8NFvb/Dhj1
                /w8a9P8QHPP/ER7y/xIg8f8TIvD/FCTv/xUm7v8WKO3/Fyrs/xgs6/8ZLur/GjDp/xsy6P8cNOf/HTbm/x44
                5f8fOuT/IDzj/yE+4v8iQOH/I0Lg/wAFBf//Bgf+/wcJ/f8IC/z/CQ37/woP+v8LEfn/DBP4/w0V9/8OF/b/
                Dxn1/xAb9P8RHfP/Eh/y/xMh8f8UI/D/FSXv/xYn7v8XKe3/GCvs/xkt6/8aL+r/GzHp/xwz6P8dNef/Hjfm
                /x855f8gO+T/IT3j/yI/4v8jQeH/JEPg/wEGBv//Bwj+/wgK/f8JDPz/Cg77/wsQ+v8MEvn/DRT4/w4W9/8P
                GPb/EBr1/xEc9P8SHvP/EyDy/xQi8f8VJPD/Fibv/xco7v8YKu3/GSzs/xou6/8bMOr/HDLp/x006P8eNuf/
                Hzjm/yA65f8hPOT/Ij7j/yNA4v8kQuH/JUTg/wIHB///CAn+/wkL/f8KDfz/Cw/7/wwR+v8NE/n/DhX4/w8X
                9/8QGfb/ERv1/xId9P8TH/P/FCHy/xUj8f8WJfD/Fyfv/xgp7v8ZK+3/Gi3s/xsv6/8cMer/HTPp/x416P8f
                N+f/IDnm/yE75f8iPeT/Iz/j/yRB4v8lQ+H/JkXg/wMICP//CQr+/woM/f8LDvz/DBD7/w0S+v8OFPn/Dxb4
                /xAY9/8RGvb/Ehz1/xMe9P8UIPP/FSLy/xYk8f8XJvD/GCjv/xkq7v8aLO3/Gy7s/xww6/8dMur/HjTp/x82
                6P8gOOf/ITrm/yI85f8jPuT/JEDj/yVC4v8mROH/J0bg/wQJCf//Cgv+/wsN/f8MD/z/DRH7/w4T+v8PFfn/
                EBf4/xEZ9/8SG/b/Ex31/xQf9P8VIfP/FiPy/xcl8f8YJ/D/GSnv/xor7v8bLe3/HC/s/x0x6/8eM+r/HzXp
                /yA36P8hOef/Ijvm/yM95f8kP+T/JUHj/yZD4v8nReH/KEfg/wAKCv//Cwz+/wwO/f8NEPz/DhL7/w8U+v8Q
                Fvn/ERj4/xIa9/8THPb/FB71/xUg9P8WIvP/FyTy/xgm8f8ZKPD/Girv/xss7v8cLu3/HTDs/x4y6/8fNOr/
                IDbp/yE46P8iOuf/Izzm/yQ+5f8lQOT/JkLj/ydE4v8oRuH/KUjg/wELC///DA3+/w0P/f8OEfz/DxP7/xAV
                +v8RF/n/Ehn4/xMb9/8UHfb/FR/1/xYh9P8XI/P/GCXy/xkn8f8aKfD/Gyvv/xwt7v8dL+3/HjHs/x8z6/8g
                Ner/ITfp/yI56P8jO+f/JD3m/yU/5f8mQeT/J0Pj/yhF4v8pR+H/Kkng/wIMDP//DQ7+/w4Q/f8PEvz/EBT7
                /xEW+v8SGPn/Exr4/xQc9/8VHvb/FiD1/xci9P8YJPP/GSby/xoo8f8bKvD/HCzv/x0u7v8eMO3/HzLs/yA0
                6/8hNur/Ijjp/yM66P8kPOf/JT7m/yZA5f8nQuT/KETj/ylG4v8qSOH/K0rg/wMNDf//Dg/+/w8R/f8QE/z/
                ERX7/xIX+v8TGfn/FBv4/xUd9/8WH/b/FyH1/xgj9P8ZJfP/Gify/xsp8f8cK/D/HS3v/x4v7v8fMe3/IDPs
                /yE16/8iN+r/Iznp/yQ76P8lPef/Jj/m/ydB5f8oQ+T/KUXj/ypH4v8rSeH/LEvg/wQODv//DxD+/xAS/f8R
                FPz/Ehb7/xMY+v8UGvn/FRz4/xYe9/8XIPb/GCL1/xkk9P8aJvP/Gyjy/xwq8f8dLPD/Hi7v/x8w7v8gMu3/
                ITTs/yI26/8jOOr/JDrp/yU86P8mPuf/J0Dm/yhC5f8pROT/Kkbj/ytI4v8sSuH/LUzg/wAPD///EBH+/xET
                /f8SFfz/Exf7/xQZ+v8VG/n/Fh34/xcf9/8YIfb/GSP1/xol9P8bJ/P/HCny/x0r8f8eLfD/Hy/v/yAx7v8h
                M+3/IjXs/yM36/8kOer/JTvp/yY96P8nP+f/KEHm/ylD5f8qReT/K0fj/yxJ4v8tS+H/Lk3g/wEQEP//ERL+
                /xIU/f8TFvz/FBj7/xUa+v8WHPn/Fx74/xgg9/8ZIvb/GiT1/xsm9P8cKPP/HSry/x4s8f8fLvD/IDDv/yEy
                7v8iNO3/Izbs/yQ46/8lOur/Jjzp/yc+6P8oQOf/KULm/ypE5f8rRuT/LEjj/y1K4v8uTOH/L07g/wIREf//
                EhP+/xMV/f8UF/z/FRn7/xYb+v8XHfn/GB/4/xkh9/8aI/b/GyX1/xwn9P8dKfP/Hivy/x8t8f8gL/D/ITHv
                /yIz7v8jNe3/JDfs/yU56/8mO+r/Jz3p/yg/6P8pQef/KkPm/ytF5f8sR+T/LUnj/y5L4v8vTeH/ME/g/wMS
                Ev//ExT+/xQW/f8VGPz/Fhr7/xcc+v8YHvn/GSD4/xoi9/8bJPb/HCb1/x0o9P8eKvP/Hyzy/yAu8f8hMPD/
                IjLv/yM07v8kNu3/JTjs/yY66/8nPOr/KD7p/ylA6P8qQuf/K0Tm/yxG5f8tSOT/Lkrj/y9M4v8wTuH/MVDg
                /wQTE///FBX+/xUX/f8WGfz/Fxv7/xgd+v8ZH/n/GiH4/xsj9/8cJfb/HSf1/x4p9P8fK/P/IC3y/yEv8f8i
                MfD/IzPv/yQ17v8lN+3/Jjns/yc76/8oPer/KT/p/ypB6P8rQ+f/LEXm/y1H5f8uSeT/L0vj/zBN4v8xT+H/
                MlHg/wAUFP//FRb+/xYY/f8XGvz/GBz7/xke+v8aIPn/GyL4/xwk9/8dJvb/Hij1/x8q9P8gLPP/IS7y/yIw
                8f8jMvD/JDTv/yU27v8mOO3/Jzrs/yg86/8pPur/KkDp/ytC6P8sROf/LUbm/y5I5f8vSuT/MEzj/zFO4v8y
                UOH/M1Lg/wEVFf//Fhf+/xcZ/f8YG/z/GR37/xof+v8bIfn/HCP4/x0l9/8eJ/b/Hyn1/yAr9P8hLfP/Ii/y
                /yMx8f8kM/D/JTXv/yY37v8nOe3/KDvs/yk96/8qP+r/K0Hp/yxD6P8tRef/Lkfm/y9J5f8wS+T/MU3j/zJP
                4v8zUeH/NFPg/wIWFv//Fxj+/xga/f8ZHPz/Gh77/xsg+v8cIvn/HST4/x4m9/8fKPb/ICr1/yEs9P8iLvP/
                IzDy/yQy8f8lNPD/Jjbv/yc47v8oOu3/KTzs/yo+6/8rQOr/LELp/y1E6P8uRuf/L0jm/zBK5f8xTOT/Mk7j
                /zNQ4v80UuH/NVTg/wMXF///GBn+/xkb/f8aHfz/Gx/7/xwh+v8dI/n/HiX4/x8n9/8gKfb/ISv1/yIt9P8j
                L/P/JDHy/yUz8f8mNfD/Jzfv/yg57v8pO+3/Kj3s/ys/6/8sQer/LUPp/y5F6P8vR+f/MEnm/zFL5f8yTeT/
                M0/j/zRR4v81U+H/NlXg/wQYGP//GRr+/xoc/f8bHvz/HCD7/x0i+v8eJPn/Hyb4/yAo9/8hKvb/Iiz1/yMu
                9P8kMPP/JTLy/yY08f8nNvD/KDjv/yk67v8qPO3/Kz7s/yxA6/8tQur/LkTp/y9G6P8wSOf/MUrm/zJM5f8z
                TuT/NFDj/zVS4v82VOH/N1bg/wAZGf//Ghv+/xsd/f8cH/z/HSH7/x4j+v8fJfn/ICf4/yEp9/8iK/b/Iy31
                /yQv9P8lMfP/JjPy/yc18f8oN/D/KTnv/yo77v8rPe3/LD/s/y1B6/8uQ+r/L0Xp/zBH6P8xSef/Mkvm/zNN
                5f80T+T/NVHj/zZT4v83VeH/OFfg/wEaGv//Gxz+/xwe/f8dIPz/HiL7/x8k+v8gJvn/ISj4/yIq9/8jLPb/
                JC71/yUw9P8mMvP/JzTy/yg28f8pOPD/Kjrv/ys87v8sPu3/LUDs/y5C6/8vROr/MEbp/zFI6P8ySuf/M0zm
                /zRO5f81UOT/NlLj/zdU4v84VuH/OVjg/wIbG///HB3+/x0f/f8eIfz/HyP7/yAl+v8hJ/n/Iin4/yMr9/8k
                Lfb/JS/1/yYx9P8nM/P/KDXy/yk38f8qOfD/Kzvv/yw97v8tP+3/LkHs/y9D6/8wRer/MUfp/zJJ6P8zS+f/
                NE3m/zVP5f82UeT/N1Pj/zhV4v85V+H/Olng/wMcHP//HR7+/x4g/f8fIvz/ICT7/yEm+v8iKPn/Iyr4/yQs
                9/8lLvb/JjD1/ycy9P8oNPP/KTby/yo48f8rOvD/LDzv/y0+7v8uQO3/L0Ls/zBE6/8xRur/Mkjp/zNK6P80
                TOf/NU7m/zZQ5f83UuT/OFTj/zlW4v86WOH/O1rg/wQdHf//Hh/+/x8h/f8gI/z/ISX7/yIn+v8jKfn/JCv4
                /yUt9/8mL/b/JzH1/ygz9P8pNfP/Kjfy/ys58f8sO/D/LT3v/y4/7v8vQe3/MEPs/zFF6/8yR+r/M0np/zRL
                6P81Tef/Nk/m/zdR5f84U+T/OVXj/zpX4v87WeH/PFvg/wAeHv//HyD+/yAi/f8hJPz/Iib7/yMo+v8kKvn/
                JSz4/yYu9/8nMPb/KDL1/yk09P8qNvP/Kzjy/yw68f8tPPD/Lj7v/y9A7v8wQu3/MUTs/zJG6/8zSOr/NErp
                /zVM6P82Tuf/N1Dm/zhS5f85VOT/Olbj/ztY4v88WuH/PVzg/wEfH///ICH+/yEj/f8iJfz/Iyf7/yQp+v8l
                K/n/Ji34/ycv9/8oMfb/KTP1/yo19P8rN/P/LDny/y078f8uPfD/Lz/v/zBB7v8xQ+3/MkXs/zNH6/80Ser/
                NUvp/zZN6P83T+f/OFHm/zlT5f86VeT/O1fj/zxZ4v89W+H/Pl3g/xOT8LY=
                """),
        ZlibFixture(
            data: .gradient, variant: "level1", firstBlockType: 2,
            outputCRC32: 0xA918_8010,
            base64:
                """
                eAEN0oOCZAmCQNHuUjpsPIVtpI2ymjOz/15h27wb5xvOb7/9Br+/2vLqzYbX79a82V/x9nDJu+MFe6o5+5oZ
                B7oph4YJR6Yxx5YRJ7YhKscAtdBHI/XQKl107g56bxuDv4Ux2MQUbmCO1rHEa1iTVWzpCvZsGUe+hPOsiHBR
                QLz6xe+//w6vXm95/XbDm701bw9WvDtasneyYF8950A741A/5cg44dg85sQ6QmUfonYO0Ih9tHIPnauL3tPB
                4GtjDLQwhZqYIw0ssTrWRA1bqoo9U8GRK+M8LSGcFxEvC0jXv3j16hW8frPlzbsNb/fXvDtcsXe8ZF+14EAz
                51A348gw5dg04cQyRmUboXYM0QgDtFIfndJD7+5i8HYw+tuYgi3M4SaWaANrvI4tWcOeruLIVnDmywhnJcSL
                ItJVAfnmF69fv4Y3b7e83dvw7mDN3tGK/ZMlB+oFh9o5R/oZx8YpJ+YJKusYtX2ExjlEKw7QyX30rh4GTxej
                r4Mp0MYcamGJNLHGGtgSdeypGo5MFWeugnBaRjwvIV0Wka8LKLe/ePPmDbx9t+Xd/oa9wzX7xysOVEsONQuO
                dHOODTNOTFNUlglq2xiNY4RWGKKTBuiVPgZ3D6O3i8nfwRxsYwm3sEab2OIN7Mk6jnQNZ7aKkK8gnpWRLkrI
                V0WUmwKuu1/89vYtvNvbsnewYf9ozcHJikP1kiPtgmP9nBPjDJV5ito6QWMfo3WO0IlD9PIAg6uP0dPD5Oti
                DnSwhNpYIy1ssSb2RANHqo4zU0PIVRFPK0jnZeTLEsp1EddtAff9LuG7d7C3v2X/cMPB8ZpD1YojzZJj3YIT
                wxyVaYbaMkVjm6B1jNEJI/TSEIMywOjuY/L2MPu7WIIdrOE2tmgLe7yJI9nAma4jZGuI+SrSWQX5ooxyVcJ1
                U8R9V8DzsEu4twf7B1sOjjYcnqw5Uq841i450S9QGeeozTM01ila+wSdc4xeHGGQhxhdA0yePmZfD0ugizXU
                wRZpY4+1cCSaOFMNhEwdMVdDOq0in1dQLsu4rku4b4t47gt4H3cJ9/fh4HDL4fGGI9WaY82KE90SlWGB2jRH
                Y5mhtU3ROSbohTEGaYRRGWJyDzB7+1j8PazBLrZwB3u0jSPewplsIqQbiNk6Ur6GfFZFuajguirjvinhuSvi
                fSjge9olPDiAw6MtRycbjtVrTrQrVPolauMCjXmO1jpDZ5+id04wiGOM8giTa4jZM8Di62MN9LCFutgjHRyx
                Ns5ECyHVRMw0kHJ15NMaynkV12UF93UZz20J730R32MB//Mu4eEhHB1vOVZtONGsUelWqA1LNKYFWsscnW2G
                3jHFIEwwSmNMygize4jFO8Dq72ML9rCHuziiHZzxNkKyhZhuImUbyPk6ylkN10UV91UFz00Z710J30MR/1OB
                wMsu4dERHJ9sOVFvUGnXqPUrNMYlWvMCnXWO3j7D4JxiFCeY5DFm1wiLZ4jVN8AW6GMP9XBEujhjHYREGzHV
                Qso0kXMNlNM6rvMa7ssqnusK3tsyvvsS/scigecCwfe7hMfHcKLaotJsUOvWaAwrtKYlOssCvW2OwTHDKEwx
                SRPMyhiLe4TVO8TmH2AP9nGEezijXYR4BzHZRkq3kLNNlHwD11kd90UNz1UV700F310Z/0OJwFOR4EuB0Idd
                wpMTUKm3qLUbNPo1WuMKnXmJ3rrAYJ9jdM4wiVPM8gSLa4zVM8LmG2IPDHCE+jgjPYRYFzHRQUq1kTMtlFwT
                12kD93kdz2UN73UV320F/32ZwGOJ4HOR0PsC4Y+7hCoVqDVbNLoNWsManWmF3rLEYFtgdMwxCTPM0hSLMsHq
                HmPzjrD7hziCA5zhPkK0hxjvIiU7yOk2SraFK9/EfdbAc1HHe1XDd1PFf1ch8FAm+FQi9FIk/KFA5NMuoVoN
                Gu0WrX6DzrhGb15hsC4x2heYnHPM4gyLPMXqmmDzjLH7RjgCQ5yhAUKkjxjrISW6yKkOSqaNK9fCfdrEc97A
                e1nHd13Df1slcF8h+Fgm9Fwi/L5I5GOB6OddQo0GtLotOsMGvWmNwbLCaFticiwwC3Ms0gyrMsXmnmD3jnH4
                RziDQ4TwADHaR4r3kJNdlHQHV7aNO9/Cc9bEe9HAd1XHf1MjcFcl+FAh9FQm/FIi8qFI9FOB2JddQq0WdPot
                euMGg3mN0brCZF9idi6wiHOs8gyba4rdM8HhG+MMjBBCQ8TIACnWR070UFJdXJkO7lwbz2kL73kT32UD/3Wd
                wG2N4H2V0GOF8HOZyPsS0Y9FYp8LxL/uEup0oDdsMZg2GC1rTLYVZscSi7DAKs2xKTPs7ikO7wSnf4wQHCGG
                h0jRAXK8j5Ls4Up3cWc7ePJtvGctfBdN/FcNAjd1gnc1Qg9Vwk8VIi9loh9KxD4ViX8pkPi2S6jXg8G4xWje
                YLKuMdtXWJxLrOICmzzH7prh8Exx+iYIgTFiaIQUGSLHBiiJPq5UD3emiyfXwXvaxnfewn/ZJHDdIHhbJ3Rf
                I/xYJfJcIfq+TOxjifjnIomvBZLfdwkNBjCatpgsG8y2NRbHCquwxCYtsCtzHO4ZTu8UwT9BDI6RwiPk6BAl
                PsCV7ONO9/Bku3jzHXxnbfwXLQJXTYI3DUJ3dcIPNSJPVaIvFWIfysQ/lUh8KZL8ViD1Y5fQaASTeYvZusFi
                X2N1rrCJS+zyAodrjtMzQ/BNEQMTpNAYOTJCiQ1xJQa4U308mR7eXBffaQf/eZvAZYvgdZPQbYPwfZ3IY43o
                c5XY+wrxj2USn0skvxZJfS+Q/rlLaDKB2bLFYttgdayxCSvs0hKHssDpniN4Z4j+KVJwghweo0RHuOJD3MkB
                nnQfb7aHL9/Ff9YhcNEmeNUidNMkfNcg8lAn+lQj9lIl/qFC4lOZ5JcSqW9F0j8KZP7YJTSbwWLdYrVvsDnX
                2MUVDnmJ07VA8MwRfTOkwBQ5NEGJjHHFRrgTQzypAd5MH1+uh/+0S+C8Q/CyTei6Rfi2SeS+QfSxTuy5Rvx9
                lcTHCsnPZVJfS6S/F8n8LJD9c5fQYgGrbYvNscEurHFIK5zKEsG9QPTOkfwz5OAUJTzBFR3jjo/wJId40wN8
                2T7+fI/AWZfgRYfQVZvwTYvIXZPoQ4PYU534S43EhyrJTxVSX8qkv5XI/CiS/aNA7q9dQqsVbPYtducGh7jG
                Ka8QXEtEzwLJN0cOzFBCU1yRCe7YGE9ihDc1xJcZ4M/1CZz2CJ53CV12CF+3idy2iN43iT02iD/XSbyvkfxY
                JfW5Qvprmcz3EtmfRXJ/Fsj/vUtos4HdscUhbHBKawRlheheInkXyP45SnCGKzzFHZ3giY/xJkf40kP82QGB
                fJ/gWY/QRZfwVYfITZvoXYvYQ5P4U4PES53khxqpT1XSXypkvpXJ/iiR+6NI/q8Cp//sEtrt4HBucYobBHmN
                6FoheZbIvgVKYI4rNMMdmeKJTfAmxvhSI/yZIYHcgOBpn9B5j/Bll8h1h+htm9h9i/hjk8Rzg+T7OqmPNdKf
                q2S+Vsh+L5P7WSL/Z5HTvwuc/btL6HCAU9giSBtEZY3kXiF7lyj+Ba7gHHd4hic6xRuf4EuO8adHBLJDgvkB
                obM+4Ysekasu0ZsOsbs28YcWiacmyZcGqQ910p9qZL5UyX6rkPtRJv9HidO/ipz9U+D8P7uETicI4hZR3iC5
                1sieFYpviSuwwB2a44nM8Mam+BIT/KkxgcyIYG5I6HRA+LxP5LJH9LpL7LZD/L5N4rFF8rlJ6n2D9Mc6mc81
                sl+r5L5XyP8sc/pnibO/i5z/W+Div7uEggCitEVSNsjuNYp3hcu/xB1c4AnP8UZn+OJT/MkJgfSYYHZEKD8k
                fDYgctEnetUjdtMlftch8dAm+dQi9dIk/aFB5lOd7JcauW9V8j8qnP5R5uyvEuf/FLn4T4HL/+0SiiJI8hbZ
                tUHxrHH5VrgDSzyhBd7IHF9shj8xJZCaEMyMCeVGhE+HRM4HRC/7xK57xG+7JO47JB/bpJ5bpN83yXxskP1c
                J/e1Rv57ldOfFc7+LHP+d4mLf4tc/rfA1f/94v8BE5Pwtg==
                """),
        ZlibFixture(
            data: .gradient, variant: "level6", firstBlockType: 2,
            outputCRC32: 0xA918_8010,
            base64:
                """
                eJwN0oOCZAmCQNHuUjpsPIVtpI2ymjOz/15h27wb5xvOb7/9Br+/2vLqzYbX79a82V/x9nDJu+MFe6o5+5oZ
                B7oph4YJR6Yxx5YRJ7YhKscAtdBHI/XQKl107g56bxuDv4Ux2MQUbmCO1rHEa1iTVWzpCvZsGUe+hPOsiHBR
                QLz6xe+//w6vXm95/XbDm701bw9WvDtasneyYF8950A741A/5cg44dg85sQ6QmUfonYO0Ih9tHIPnauL3tPB
                4GtjDLQwhZqYIw0ssTrWRA1bqoo9U8GRK+M8LSGcFxEvC0jXv3j16hW8frPlzbsNb/fXvDtcsXe8ZF+14EAz
                51A348gw5dg04cQyRmUboXYM0QgDtFIfndJD7+5i8HYw+tuYgi3M4SaWaANrvI4tWcOeruLIVnDmywhnJcSL
                ItJVAfnmF69fv4Y3b7e83dvw7mDN3tGK/ZMlB+oFh9o5R/oZx8YpJ+YJKusYtX2ExjlEKw7QyX30rh4GTxej
                r4Mp0MYcamGJNLHGGtgSdeypGo5MFWeugnBaRjwvIV0Wka8LKLe/ePPmDbx9t+Xd/oa9wzX7xysOVEsONQuO
                dHOODTNOTFNUlglq2xiNY4RWGKKTBuiVPgZ3D6O3i8nfwRxsYwm3sEab2OIN7Mk6jnQNZ7aKkK8gnpWRLkrI
                V0WUmwKuu1/89vYtvNvbsnewYf9ozcHJikP1kiPtgmP9nBPjDJV5ito6QWMfo3WO0IlD9PIAg6uP0dPD5Oti
                DnSwhNpYIy1ssSb2RANHqo4zU0PIVRFPK0jnZeTLEsp1EddtAff9LuG7d7C3v2X/cMPB8ZpD1YojzZJj3YIT
                wxyVaYbaMkVjm6B1jNEJI/TSEIMywOjuY/L2MPu7WIIdrOE2tmgLe7yJI9nAma4jZGuI+SrSWQX5ooxyVcJ1
                U8R9V8DzsEu4twf7B1sOjjYcnqw5Uq841i450S9QGeeozTM01ila+wSdc4xeHGGQhxhdA0yePmZfD0ugizXU
                wRZpY4+1cCSaOFMNhEwdMVdDOq0in1dQLsu4rku4b4t47gt4H3cJ9/fh4HDL4fGGI9WaY82KE90SlWGB2jRH
                Y5mhtU3ROSbohTEGaYRRGWJyDzB7+1j8PazBLrZwB3u0jSPewplsIqQbiNk6Ur6GfFZFuajguirjvinhuSvi
                fSjge9olPDiAw6MtRycbjtVrTrQrVPolauMCjXmO1jpDZ5+id04wiGOM8giTa4jZM8Di62MN9LCFutgjHRyx
                Ns5ECyHVRMw0kHJ15NMaynkV12UF93UZz20J730R32MB//Mu4eEhHB1vOVZtONGsUelWqA1LNKYFWsscnW2G
                3jHFIEwwSmNMygize4jFO8Dq72ML9rCHuziiHZzxNkKyhZhuImUbyPk6ylkN10UV91UFz00Z710J30MR/1OB
                wMsu4dERHJ9sOVFvUGnXqPUrNMYlWvMCnXWO3j7D4JxiFCeY5DFm1wiLZ4jVN8AW6GMP9XBEujhjHYREGzHV
                Qso0kXMNlNM6rvMa7ssqnusK3tsyvvsS/scigecCwfe7hMfHcKLaotJsUOvWaAwrtKYlOssCvW2OwTHDKEwx
                SRPMyhiLe4TVO8TmH2AP9nGEezijXYR4BzHZRkq3kLNNlHwD11kd90UNz1UV700F310Z/0OJwFOR4EuB0Idd
                wpMTUKm3qLUbNPo1WuMKnXmJ3rrAYJ9jdM4wiVPM8gSLa4zVM8LmG2IPDHCE+jgjPYRYFzHRQUq1kTMtlFwT
                12kD93kdz2UN73UV320F/32ZwGOJ4HOR0PsC4Y+7hCoVqDVbNLoNWsManWmF3rLEYFtgdMwxCTPM0hSLMsHq
                HmPzjrD7hziCA5zhPkK0hxjvIiU7yOk2SraFK9/EfdbAc1HHe1XDd1PFf1ch8FAm+FQi9FIk/KFA5NMuoVoN
                Gu0WrX6DzrhGb15hsC4x2heYnHPM4gyLPMXqmmDzjLH7RjgCQ5yhAUKkjxjrISW6yKkOSqaNK9fCfdrEc97A
                e1nHd13Df1slcF8h+Fgm9Fwi/L5I5GOB6OddQo0GtLotOsMGvWmNwbLCaFticiwwC3Ms0gyrMsXmnmD3jnH4
                RziDQ4TwADHaR4r3kJNdlHQHV7aNO9/Cc9bEe9HAd1XHf1MjcFcl+FAh9FQm/FIi8qFI9FOB2JddQq0WdPot
                euMGg3mN0brCZF9idi6wiHOs8gyba4rdM8HhG+MMjBBCQ8TIACnWR070UFJdXJkO7lwbz2kL73kT32UD/3Wd
                wG2N4H2V0GOF8HOZyPsS0Y9FYp8LxL/uEup0oDdsMZg2GC1rTLYVZscSi7DAKs2xKTPs7ikO7wSnf4wQHCGG
                h0jRAXK8j5Ls4Up3cWc7ePJtvGctfBdN/FcNAjd1gnc1Qg9Vwk8VIi9loh9KxD4ViX8pkPi2S6jXg8G4xWje
                YLKuMdtXWJxLrOICmzzH7prh8Exx+iYIgTFiaIQUGSLHBiiJPq5UD3emiyfXwXvaxnfewn/ZJHDdIHhbJ3Rf
                I/xYJfJcIfq+TOxjifjnIomvBZLfdwkNBjCatpgsG8y2NRbHCquwxCYtsCtzHO4ZTu8UwT9BDI6RwiPk6BAl
                PsCV7ONO9/Bku3jzHXxnbfwXLQJXTYI3DUJ3dcIPNSJPVaIvFWIfysQ/lUh8KZL8ViD1Y5fQaASTeYvZusFi
                X2N1rrCJS+zyAodrjtMzQ/BNEQMTpNAYOTJCiQ1xJQa4U308mR7eXBffaQf/eZvAZYvgdZPQbYPwfZ3IY43o
                c5XY+wrxj2USn0skvxZJfS+Q/rlLaDKB2bLFYttgdayxCSvs0hKHssDpniN4Z4j+KVJwghweo0RHuOJD3MkB
                nnQfb7aHL9/Ff9YhcNEmeNUidNMkfNcg8lAn+lQj9lIl/qFC4lOZ5JcSqW9F0j8KZP7YJTSbwWLdYrVvsDnX
                2MUVDnmJ07VA8MwRfTOkwBQ5NEGJjHHFRrgTQzypAd5MH1+uh/+0S+C8Q/CyTei6Rfi2SeS+QfSxTuy5Rvx9
                lcTHCsnPZVJfS6S/F8n8LJD9c5fQYgGrbYvNscEurHFIK5zKEsG9QPTOkfwz5OAUJTzBFR3jjo/wJId40wN8
                2T7+fI/AWZfgRYfQVZvwTYvIXZPoQ4PYU534S43EhyrJTxVSX8qkv5XI/CiS/aNA7q9dQqsVbPYtducGh7jG
                Ka8QXEtEzwLJN0cOzFBCU1yRCe7YGE9ihDc1xJcZ4M/1CZz2CJ53CV12CF+3idy2iN43iT02iD/XSbyvkfxY
                JfW5Qvprmcz3EtmfRXJ/Fsj/vUtos4HdscUhbHBKawRlheheInkXyP45SnCGKzzFHZ3giY/xJkf40kP82QGB
                fJ/gWY/QRZfwVYfITZvoXYvYQ5P4U4PES53khxqpT1XSXypkvpXJ/iiR+6NI/q8Cp//sEtrt4HBucYobBHmN
                6FoheZbIvgVKYI4rNMMdmeKJTfAmxvhSI/yZIYHcgOBpn9B5j/Bll8h1h+htm9h9i/hjk8Rzg+T7OqmPNdKf
                q2S+Vsh+L5P7WSL/Z5HTvwuc/btL6HCAU9giSBtEZY3kXiF7lyj+Ba7gHHd4hic6xRuf4EuO8adHBLJDgvkB
                obM+4Ysekasu0ZsOsbs28YcWiacmyZcGqQ910p9qZL5UyX6rkPtRJv9HidO/ipz9U+D8P7uETicI4hZR3iC5
                1sieFYpviSuwwB2a44nM8Mam+BIT/KkxgcyIYG5I6HRA+LxP5LJH9LpL7LZD/L5N4rFF8rlJ6n2D9Mc6mc81
                sl+r5L5XyP8sc/pnibO/i5z/W+Div7uEggCitEVSNsjuNYp3hcu/xB1c4AnP8UZn+OJT/MkJgfSYYHZEKD8k
                fDYgctEnetUjdtMlftch8dAm+dQi9dIk/aFB5lOd7JcauW9V8j8qnP5R5uyvEuf/FLn4T4HL/+0SiiJI8hbZ
                tUHxrHH5VrgDSzyhBd7IHF9shj8xJZCaEMyMCeVGhE+HRM4HRC/7xK57xG+7JO47JB/bpJ5bpN83yXxskP1c
                J/e1Rv57ldOfFc7+LHP+d4mLf4tc/rfA1f/94v8BE5Pwtg==
                """),
        ZlibFixture(
            data: .gradient, variant: "level9", firstBlockType: 2,
            outputCRC32: 0xA918_8010,
            base64:
                """
                eNoN0oOCZAmCQNHuUjpsPIVtpI2ymjOz/15h27wb5xvOb7/9Br+/2vLqzYbX79a82V/x9nDJu+MFe6o5+5oZ
                B7oph4YJR6Yxx5YRJ7YhKscAtdBHI/XQKl107g56bxuDv4Ux2MQUbmCO1rHEa1iTVWzpCvZsGUe+hPOsiHBR
                QLz6xe+//w6vXm95/XbDm701bw9WvDtasneyYF8950A741A/5cg44dg85sQ6QmUfonYO0Ih9tHIPnauL3tPB
                4GtjDLQwhZqYIw0ssTrWRA1bqoo9U8GRK+M8LSGcFxEvC0jXv3j16hW8frPlzbsNb/fXvDtcsXe8ZF+14EAz
                51A348gw5dg04cQyRmUboXYM0QgDtFIfndJD7+5i8HYw+tuYgi3M4SaWaANrvI4tWcOeruLIVnDmywhnJcSL
                ItJVAfnmF69fv4Y3b7e83dvw7mDN3tGK/ZMlB+oFh9o5R/oZx8YpJ+YJKusYtX2ExjlEKw7QyX30rh4GTxej
                r4Mp0MYcamGJNLHGGtgSdeypGo5MFWeugnBaRjwvIV0Wka8LKLe/ePPmDbx9t+Xd/oa9wzX7xysOVEsONQuO
                dHOODTNOTFNUlglq2xiNY4RWGKKTBuiVPgZ3D6O3i8nfwRxsYwm3sEab2OIN7Mk6jnQNZ7aKkK8gnpWRLkrI
                V0WUmwKuu1/89vYtvNvbsnewYf9ozcHJikP1kiPtgmP9nBPjDJV5ito6QWMfo3WO0IlD9PIAg6uP0dPD5Oti
                DnSwhNpYIy1ssSb2RANHqo4zU0PIVRFPK0jnZeTLEsp1EddtAff9LuG7d7C3v2X/cMPB8ZpD1YojzZJj3YIT
                wxyVaYbaMkVjm6B1jNEJI/TSEIMywOjuY/L2MPu7WIIdrOE2tmgLe7yJI9nAma4jZGuI+SrSWQX5ooxyVcJ1
                U8R9V8DzsEu4twf7B1sOjjYcnqw5Uq841i450S9QGeeozTM01ila+wSdc4xeHGGQhxhdA0yePmZfD0ugizXU
                wRZpY4+1cCSaOFMNhEwdMVdDOq0in1dQLsu4rku4b4t47gt4H3cJ9/fh4HDL4fGGI9WaY82KE90SlWGB2jRH
                Y5mhtU3ROSbohTEGaYRRGWJyDzB7+1j8PazBLrZwB3u0jSPewplsIqQbiNk6Ur6GfFZFuajguirjvinhuSvi
                fSjge9olPDiAw6MtRycbjtVrTrQrVPolauMCjXmO1jpDZ5+id04wiGOM8giTa4jZM8Di62MN9LCFutgjHRyx
                Ns5ECyHVRMw0kHJ15NMaynkV12UF93UZz20J730R32MB//Mu4eEhHB1vOVZtONGsUelWqA1LNKYFWsscnW2G
                3jHFIEwwSmNMygize4jFO8Dq72ML9rCHuziiHZzxNkKyhZhuImUbyPk6ylkN10UV91UFz00Z710J30MR/1OB
                wMsu4dERHJ9sOVFvUGnXqPUrNMYlWvMCnXWO3j7D4JxiFCeY5DFm1wiLZ4jVN8AW6GMP9XBEujhjHYREGzHV
                Qso0kXMNlNM6rvMa7ssqnusK3tsyvvsS/scigecCwfe7hMfHcKLaotJsUOvWaAwrtKYlOssCvW2OwTHDKEwx
                SRPMyhiLe4TVO8TmH2AP9nGEezijXYR4BzHZRkq3kLNNlHwD11kd90UNz1UV700F310Z/0OJwFOR4EuB0Idd
                wpMTUKm3qLUbNPo1WuMKnXmJ3rrAYJ9jdM4wiVPM8gSLa4zVM8LmG2IPDHCE+jgjPYRYFzHRQUq1kTMtlFwT
                12kD93kdz2UN73UV320F/32ZwGOJ4HOR0PsC4Y+7hCoVqDVbNLoNWsManWmF3rLEYFtgdMwxCTPM0hSLMsHq
                HmPzjrD7hziCA5zhPkK0hxjvIiU7yOk2SraFK9/EfdbAc1HHe1XDd1PFf1ch8FAm+FQi9FIk/KFA5NMuoVoN
                Gu0WrX6DzrhGb15hsC4x2heYnHPM4gyLPMXqmmDzjLH7RjgCQ5yhAUKkjxjrISW6yKkOSqaNK9fCfdrEc97A
                e1nHd13Df1slcF8h+Fgm9Fwi/L5I5GOB6OddQo0GtLotOsMGvWmNwbLCaFticiwwC3Ms0gyrMsXmnmD3jnH4
                RziDQ4TwADHaR4r3kJNdlHQHV7aNO9/Cc9bEe9HAd1XHf1MjcFcl+FAh9FQm/FIi8qFI9FOB2JddQq0WdPot
                euMGg3mN0brCZF9idi6wiHOs8gyba4rdM8HhG+MMjBBCQ8TIACnWR070UFJdXJkO7lwbz2kL73kT32UD/3Wd
                wG2N4H2V0GOF8HOZyPsS0Y9FYp8LxL/uEup0oDdsMZg2GC1rTLYVZscSi7DAKs2xKTPs7ikO7wSnf4wQHCGG
                h0jRAXK8j5Ls4Up3cWc7ePJtvGctfBdN/FcNAjd1gnc1Qg9Vwk8VIi9loh9KxD4ViX8pkPi2S6jXg8G4xWje
                YLKuMdtXWJxLrOICmzzH7prh8Exx+iYIgTFiaIQUGSLHBiiJPq5UD3emiyfXwXvaxnfewn/ZJHDdIHhbJ3Rf
                I/xYJfJcIfq+TOxjifjnIomvBZLfdwkNBjCatpgsG8y2NRbHCquwxCYtsCtzHO4ZTu8UwT9BDI6RwiPk6BAl
                PsCV7ONO9/Bku3jzHXxnbfwXLQJXTYI3DUJ3dcIPNSJPVaIvFWIfysQ/lUh8KZL8ViD1Y5fQaASTeYvZusFi
                X2N1rrCJS+zyAodrjtMzQ/BNEQMTpNAYOTJCiQ1xJQa4U308mR7eXBffaQf/eZvAZYvgdZPQbYPwfZ3IY43o
                c5XY+wrxj2USn0skvxZJfS+Q/rlLaDKB2bLFYttgdayxCSvs0hKHssDpniN4Z4j+KVJwghweo0RHuOJD3MkB
                nnQfb7aHL9/Ff9YhcNEmeNUidNMkfNcg8lAn+lQj9lIl/qFC4lOZ5JcSqW9F0j8KZP7YJTSbwWLdYrVvsDnX
                2MUVDnmJ07VA8MwRfTOkwBQ5NEGJjHHFRrgTQzypAd5MH1+uh/+0S+C8Q/CyTei6Rfi2SeS+QfSxTuy5Rvx9
                lcTHCsnPZVJfS6S/F8n8LJD9c5fQYgGrbYvNscEurHFIK5zKEsG9QPTOkfwz5OAUJTzBFR3jjo/wJId40wN8
                2T7+fI/AWZfgRYfQVZvwTYvIXZPoQ4PYU534S43EhyrJTxVSX8qkv5XI/CiS/aNA7q9dQqsVbPYtducGh7jG
                Ka8QXEtEzwLJN0cOzFBCU1yRCe7YGE9ihDc1xJcZ4M/1CZz2CJ53CV12CF+3idy2iN43iT02iD/XSbyvkfxY
                JfW5Qvprmcz3EtmfRXJ/Fsj/vUtos4HdscUhbHBKawRlheheInkXyP45SnCGKzzFHZ3giY/xJkf40kP82QGB
                fJ/gWY/QRZfwVYfITZvoXYvYQ5P4U4PES53khxqpT1XSXypkvpXJ/iiR+6NI/q8Cp//sEtrt4HBucYobBHmN
                6FoheZbIvgVKYI4rNMMdmeKJTfAmxvhSI/yZIYHcgOBpn9B5j/Bll8h1h+htm9h9i/hjk8Rzg+T7OqmPNdKf
                q2S+Vsh+L5P7WSL/Z5HTvwuc/btL6HCAU9giSBtEZY3kXiF7lyj+Ba7gHHd4hic6xRuf4EuO8adHBLJDgvkB
                obM+4Ysekasu0ZsOsbs28YcWiacmyZcGqQ910p9qZL5UyX6rkPtRJv9HidO/ipz9U+D8P7uETicI4hZR3iC5
                1sieFYpviSuwwB2a44nM8Mam+BIT/KkxgcyIYG5I6HRA+LxP5LJH9LpL7LZD/L5N4rFF8rlJ6n2D9Mc6mc81
                sl+r5L5XyP8sc/pnibO/i5z/W+Div7uEggCitEVSNsjuNYp3hcu/xB1c4AnP8UZn+OJT/MkJgfSYYHZEKD8k
                fDYgctEnetUjdtMlftch8dAm+dQi9dIk/aFB5lOd7JcauW9V8j8qnP5R5uyvEuf/FLn4T4HL/+0SiiJI8hbZ
                tUHxrHH5VrgDSzyhBd7IHF9shj8xJZCaEMyMCeVGhE+HRM4HRC/7xK57xG+7JO47JB/bpJ5bpN83yXxskP1c
                J/e1Rv57ldOfFc7+LHP+d4mLf4tc/rfA1f/94v8BE5Pwtg==
                """),
        ZlibFixture(
            data: .gradient, variant: "fixed", firstBlockType: 0,
            outputCRC32: 0xA918_8010,
            base64:
                """
                eAEBIBDf7wAAAP//AQL+/wIE/f8DBvz/BAj7/wUK+v8GDPn/Bw74/wgQ9/8JEvb/ChT1/wsW9P8MGPP/DRry
                /w4c8f8PHvD/ECDv/xEi7v8SJO3/Eybs/xQo6/8VKur/Fizp/xcu6P8YMOf/GTLm/xo05f8bNuT/HDjj/x06
                4v8ePOH/Hz7g/wEBAf//AgP+/wMF/f8EB/z/BQn7/wYL+v8HDfn/CA/4/wkR9/8KE/b/CxX1/wwX9P8NGfP/
                Dhvy/w8d8f8QH/D/ESHv/xIj7v8TJe3/FCfs/xUp6/8WK+r/Fy3p/xgv6P8ZMef/GjPm/xs15f8cN+T/HTnj
                /x474v8fPeH/ID/g/wICAv//AwT+/wQG/f8FCPz/Bgr7/wcM+v8IDvn/CRD4/woS9/8LFPb/DBb1/w0Y9P8O
                GvP/Dxzy/xAe8f8RIPD/EiLv/xMk7v8UJu3/FSjs/xYq6/8XLOr/GC7p/xkw6P8aMuf/GzTm/xw25f8dOOT/
                Hjrj/x884v8gPuH/IUDg/wMDA///BAX+/wUH/f8GCfz/Bwv7/wgN+v8JD/n/ChH4/wsT9/8MFfb/DRf1/w4Z
                9P8PG/P/EB3y/xEf8f8SIfD/EyPv/xQl7v8VJ+3/Fins/xcr6/8YLer/GS/p/xox6P8bM+f/HDXm/x035f8e
                OeT/Hzvj/yA94v8hP+H/IkHg/wQEBP//BQb+/wYI/f8HCvz/CAz7/wkO+v8KEPn/CxL4/wwU9/8NFvb/Dhj1
                /w8a9P8QHPP/ER7y/xIg8f8TIvD/FCTv/xUm7v8WKO3/Fyrs/xgs6/8ZLur/GjDp/xsy6P8cNOf/HTbm/x44
                5f8fOuT/IDzj/yE+4v8iQOH/I0Lg/wAFBf//Bgf+/wcJ/f8IC/z/CQ37/woP+v8LEfn/DBP4/w0V9/8OF/b/
                Dxn1/xAb9P8RHfP/Eh/y/xMh8f8UI/D/FSXv/xYn7v8XKe3/GCvs/xkt6/8aL+r/GzHp/xwz6P8dNef/Hjfm
                /x855f8gO+T/IT3j/yI/4v8jQeH/JEPg/wEGBv//Bwj+/wgK/f8JDPz/Cg77/wsQ+v8MEvn/DRT4/w4W9/8P
                GPb/EBr1/xEc9P8SHvP/EyDy/xQi8f8VJPD/Fibv/xco7v8YKu3/GSzs/xou6/8bMOr/HDLp/x006P8eNuf/
                Hzjm/yA65f8hPOT/Ij7j/yNA4v8kQuH/JUTg/wIHB///CAn+/wkL/f8KDfz/Cw/7/wwR+v8NE/n/DhX4/w8X
                9/8QGfb/ERv1/xId9P8TH/P/FCHy/xUj8f8WJfD/Fyfv/xgp7v8ZK+3/Gi3s/xsv6/8cMer/HTPp/x416P8f
                N+f/IDnm/yE75f8iPeT/Iz/j/yRB4v8lQ+H/JkXg/wMICP//CQr+/woM/f8LDvz/DBD7/w0S+v8OFPn/Dxb4
                /xAY9/8RGvb/Ehz1/xMe9P8UIPP/FSLy/xYk8f8XJvD/GCjv/xkq7v8aLO3/Gy7s/xww6/8dMur/HjTp/x82
                6P8gOOf/ITrm/yI85f8jPuT/JEDj/yVC4v8mROH/J0bg/wQJCf//Cgv+/wsN/f8MD/z/DRH7/w4T+v8PFfn/
                EBf4/xEZ9/8SG/b/Ex31/xQf9P8VIfP/FiPy/xcl8f8YJ/D/GSnv/xor7v8bLe3/HC/s/x0x6/8eM+r/HzXp
                /yA36P8hOef/Ijvm/yM95f8kP+T/JUHj/yZD4v8nReH/KEfg/wAKCv//Cwz+/wwO/f8NEPz/DhL7/w8U+v8Q
                Fvn/ERj4/xIa9/8THPb/FB71/xUg9P8WIvP/FyTy/xgm8f8ZKPD/Girv/xss7v8cLu3/HTDs/x4y6/8fNOr/
                IDbp/yE46P8iOuf/Izzm/yQ+5f8lQOT/JkLj/ydE4v8oRuH/KUjg/wELC///DA3+/w0P/f8OEfz/DxP7/xAV
                +v8RF/n/Ehn4/xMb9/8UHfb/FR/1/xYh9P8XI/P/GCXy/xkn8f8aKfD/Gyvv/xwt7v8dL+3/HjHs/x8z6/8g
                Ner/ITfp/yI56P8jO+f/JD3m/yU/5f8mQeT/J0Pj/yhF4v8pR+H/Kkng/wIMDP//DQ7+/w4Q/f8PEvz/EBT7
                /xEW+v8SGPn/Exr4/xQc9/8VHvb/FiD1/xci9P8YJPP/GSby/xoo8f8bKvD/HCzv/x0u7v8eMO3/HzLs/yA0
                6/8hNur/Ijjp/yM66P8kPOf/JT7m/yZA5f8nQuT/KETj/ylG4v8qSOH/K0rg/wMNDf//Dg/+/w8R/f8QE/z/
                ERX7/xIX+v8TGfn/FBv4/xUd9/8WH/b/FyH1/xgj9P8ZJfP/Gify/xsp8f8cK/D/HS3v/x4v7v8fMe3/IDPs
                /yE16/8iN+r/Iznp/yQ76P8lPef/Jj/m/ydB5f8oQ+T/KUXj/ypH4v8rSeH/LEvg/wQODv//DxD+/xAS/f8R
                FPz/Ehb7/xMY+v8UGvn/FRz4/xYe9/8XIPb/GCL1/xkk9P8aJvP/Gyjy/xwq8f8dLPD/Hi7v/x8w7v8gMu3/
                ITTs/yI26/8jOOr/JDrp/yU86P8mPuf/J0Dm/yhC5f8pROT/Kkbj/ytI4v8sSuH/LUzg/wAPD///EBH+/xET
                /f8SFfz/Exf7/xQZ+v8VG/n/Fh34/xcf9/8YIfb/GSP1/xol9P8bJ/P/HCny/x0r8f8eLfD/Hy/v/yAx7v8h
                M+3/IjXs/yM36/8kOer/JTvp/yY96P8nP+f/KEHm/ylD5f8qReT/K0fj/yxJ4v8tS+H/Lk3g/wEQEP//ERL+
                /xIU/f8TFvz/FBj7/xUa+v8WHPn/Fx74/xgg9/8ZIvb/GiT1/xsm9P8cKPP/HSry/x4s8f8fLvD/IDDv/yEy
                7v8iNO3/Izbs/yQ46/8lOur/Jjzp/yc+6P8oQOf/KULm/ypE5f8rRuT/LEjj/y1K4v8uTOH/L07g/wIREf//
                EhP+/xMV/f8UF/z/FRn7/xYb+v8XHfn/GB/4/xkh9/8aI/b/GyX1/xwn9P8dKfP/Hivy/x8t8f8gL/D/ITHv
                /yIz7v8jNe3/JDfs/yU56/8mO+r/Jz3p/yg/6P8pQef/KkPm/ytF5f8sR+T/LUnj/y5L4v8vTeH/ME/g/wMS
                Ev//ExT+/xQW/f8VGPz/Fhr7/xcc+v8YHvn/GSD4/xoi9/8bJPb/HCb1/x0o9P8eKvP/Hyzy/yAu8f8hMPD/
                IjLv/yM07v8kNu3/JTjs/yY66/8nPOr/KD7p/ylA6P8qQuf/K0Tm/yxG5f8tSOT/Lkrj/y9M4v8wTuH/MVDg
                /wQTE///FBX+/xUX/f8WGfz/Fxv7/xgd+v8ZH/n/GiH4/xsj9/8cJfb/HSf1/x4p9P8fK/P/IC3y/yEv8f8i
                MfD/IzPv/yQ17v8lN+3/Jjns/yc76/8oPer/KT/p/ypB6P8rQ+f/LEXm/y1H5f8uSeT/L0vj/zBN4v8xT+H/
                MlHg/wAUFP//FRb+/xYY/f8XGvz/GBz7/xke+v8aIPn/GyL4/xwk9/8dJvb/Hij1/x8q9P8gLPP/IS7y/yIw
                8f8jMvD/JDTv/yU27v8mOO3/Jzrs/yg86/8pPur/KkDp/ytC6P8sROf/LUbm/y5I5f8vSuT/MEzj/zFO4v8y
                UOH/M1Lg/wEVFf//Fhf+/xcZ/f8YG/z/GR37/xof+v8bIfn/HCP4/x0l9/8eJ/b/Hyn1/yAr9P8hLfP/Ii/y
                /yMx8f8kM/D/JTXv/yY37v8nOe3/KDvs/yk96/8qP+r/K0Hp/yxD6P8tRef/Lkfm/y9J5f8wS+T/MU3j/zJP
                4v8zUeH/NFPg/wIWFv//Fxj+/xga/f8ZHPz/Gh77/xsg+v8cIvn/HST4/x4m9/8fKPb/ICr1/yEs9P8iLvP/
                IzDy/yQy8f8lNPD/Jjbv/yc47v8oOu3/KTzs/yo+6/8rQOr/LELp/y1E6P8uRuf/L0jm/zBK5f8xTOT/Mk7j
                /zNQ4v80UuH/NVTg/wMXF///GBn+/xkb/f8aHfz/Gx/7/xwh+v8dI/n/HiX4/x8n9/8gKfb/ISv1/yIt9P8j
                L/P/JDHy/yUz8f8mNfD/Jzfv/yg57v8pO+3/Kj3s/ys/6/8sQer/LUPp/y5F6P8vR+f/MEnm/zFL5f8yTeT/
                M0/j/zRR4v81U+H/NlXg/wQYGP//GRr+/xoc/f8bHvz/HCD7/x0i+v8eJPn/Hyb4/yAo9/8hKvb/Iiz1/yMu
                9P8kMPP/JTLy/yY08f8nNvD/KDjv/yk67v8qPO3/Kz7s/yxA6/8tQur/LkTp/y9G6P8wSOf/MUrm/zJM5f8z
                TuT/NFDj/zVS4v82VOH/N1bg/wAZGf//Ghv+/xsd/f8cH/z/HSH7/x4j+v8fJfn/ICf4/yEp9/8iK/b/Iy31
                /yQv9P8lMfP/JjPy/yc18f8oN/D/KTnv/yo77v8rPe3/LD/s/y1B6/8uQ+r/L0Xp/zBH6P8xSef/Mkvm/zNN
                5f80T+T/NVHj/zZT4v83VeH/OFfg/wEaGv//Gxz+/xwe/f8dIPz/HiL7/x8k+v8gJvn/ISj4/yIq9/8jLPb/
                JC71/yUw9P8mMvP/JzTy/yg28f8pOPD/Kjrv/ys87v8sPu3/LUDs/y5C6/8vROr/MEbp/zFI6P8ySuf/M0zm
                /zRO5f81UOT/NlLj/zdU4v84VuH/OVjg/wIbG///HB3+/x0f/f8eIfz/HyP7/yAl+v8hJ/n/Iin4/yMr9/8k
                Lfb/JS/1/yYx9P8nM/P/KDXy/yk38f8qOfD/Kzvv/yw97v8tP+3/LkHs/y9D6/8wRer/MUfp/zJJ6P8zS+f/
                NE3m/zVP5f82UeT/N1Pj/zhV4v85V+H/Olng/wMcHP//HR7+/x4g/f8fIvz/ICT7/yEm+v8iKPn/Iyr4/yQs
                9/8lLvb/JjD1/ycy9P8oNPP/KTby/yo48f8rOvD/LDzv/y0+7v8uQO3/L0Ls/zBE6/8xRur/Mkjp/zNK6P80
                TOf/NU7m/zZQ5f83UuT/OFTj/zlW4v86WOH/O1rg/wQdHf//Hh/+/x8h/f8gI/z/ISX7/yIn+v8jKfn/JCv4
                /yUt9/8mL/b/JzH1/ygz9P8pNfP/Kjfy/ys58f8sO/D/LT3v/y4/7v8vQe3/MEPs/zFF6/8yR+r/M0np/zRL
                6P81Tef/Nk/m/zdR5f84U+T/OVXj/zpX4v87WeH/PFvg/wAeHv//HyD+/yAi/f8hJPz/Iib7/yMo+v8kKvn/
                JSz4/yYu9/8nMPb/KDL1/yk09P8qNvP/Kzjy/yw68f8tPPD/Lj7v/y9A7v8wQu3/MUTs/zJG6/8zSOr/NErp
                /zVM6P82Tuf/N1Dm/zhS5f85VOT/Olbj/ztY4v88WuH/PVzg/wEfH///ICH+/yEj/f8iJfz/Iyf7/yQp+v8l
                K/n/Ji34/ycv9/8oMfb/KTP1/yo19P8rN/P/LDny/y078f8uPfD/Lz/v/zBB7v8xQ+3/MkXs/zNH6/80Ser/
                NUvp/zZN6P83T+f/OFHm/zlT5f86VeT/O1fj/zxZ4v89W+H/Pl3g/xOT8LY=
                """),
        ZlibFixture(
            data: .gradient, variant: "huffmanOnly", firstBlockType: 2,
            outputCRC32: 0xA918_8010,
            base64:
                """
                eAEFwQNjnA2igNG2SeOMjRdjW7FV4+Pu3v8+tu3nnvPu3Tt4/2HLh90NO3trdg9WfDxasneyYF8x50A141Az
                5Ug34dgw5sQ04tQyRGEboBT6qKQeakcXjauD1tNG52uhDzQxhBoYI3VMsRrmRBVLqoI1U8aWK2E/LyJcFhCv
                87x//x4+7GzZ+bhhd3/Nx8MVe8dL9k8XHCjnHKpnHGmnHOsnnBjHnJpHKKxDlPYBKrGPWu6hcXbRujvovG30
                /haGYBNjuIEpWsccr2FJVrGmK9iyZexnJYSLIuJVAekmz4cPH2Bnd8vu3oaPB2v2jlbsnyw5UCw4VM050sw4
                1k05MUw4NY1RWEYobUNUwgC11Efj6KF1ddF5Ouh9bQyBFsZQE1OkgTlWx5KoYU1VsWUq2HNlhPMS4mUR6bqA
                fJtnZ2cHdj9u+bi/Ye9wzf7xioPTJYfKBUfqOcfaGSf6KafGCQrzGKV1hMo+RC0O0Mh9tM4eOncXvbeDwd/G
                GGxhCjcxRxtY4nWsyRq2dBV7toJwVka8KCFdFZFvCjju8uzu7sLHvS17Bxv2j9YcnKw4VCw5Ui041sw50c04
                NUxRmCYoLWNUthFqYYhGGqB19NG5eug9XQy+DsZAG1OohTnSxBJrYE3UsaVq2DNVhFwF8byMdFlCvi7iuC3g
                vM/z7uNH2Nvfsn+44eB4zeHpiiPlkmP1ghPtnFP9DIVxitI8QWUdo7aP0IhDtPIAnbOP3t3D4O1i9HcwBduY
                wy0s0SbWeANbso49XUPIVhHPKkgXZeSrEo6bIs67Aq6HPO/39mD/YMvB0YbDkzVHihXHqiUnmgWnujkKwwyl
                aYrKMkFtG6MRRmilITrHAL2rj8HTw+jrYgp0MIfaWCItrLEmtkQDe6qOkKkh5qpI5xXkyzKO6xLO2yKu+wLu
                xzwf9vfh4HDL4fGGo9M1x8oVJ+olp9oFCv0cpXGGyjxFbZ2gsY/RiiN08hC9c4DB3cfo7WHydzEHO1jCbazR
                FrZ4E3uygZCuI2ZrSGdV5IsKjqsyzpsSrrsi7ocCnqc8OwcHcHi05ehkw7FizYlqxalmiUK3QGmYozLNUFum
                aGwTtMIYnTRC7xhicA0wevqYfD3MgS6WUAdrpI0t1sKeaCKkGoiZOlKuhnxexXFZwXldxnVbwn1fxPNYwPuc
                Z/fwEI6OtxyfbjhRrjlVr1Bolyj1C1TGOWrzDI11itY+QSeO0csjDM4hRvcAk7eP2d/DEuxiDXewRdvY4y2E
                ZBMx3UDK1pHPajguqjivKrhuyrjvSngeinifCvhe8rw7OoLjky0nig2nqjUKzQqlbonKsEBtmqOxzNDapuiE
                CXppjMExwugaYvIMMPv6WAI9rKEutkgHe6yNkGghpppImQZyro7jvIbzsorruoL7toznvoT3sYjvuYD/Nc/7
                42M4Od1yqtygUK9Raleo9EvUxgUa8xytdYbOPkUvTjDIY4zOESb3ELN3gMXfxxrsYQt3sUc7CPE2YrKFlG4i
                Zxs4zuo4L2q4rqq4byp47sp4H0r4nor4XwoE3vJ8ODmBU8UWhWqDUrNGpVuhNizRmBZoLXN0thl6YYpBmmB0
                jDG5Rpg9Qyy+AdZAH1uohz3SRYh1EBNtpFQLOdPEkWvgPK/juqzhvq7iua3gvS/jeyzhfy4SeC0Q/JRn5/QU
                FMotSvUGlXaNWr9CY1yiNS/QWefo7TMM4hSjPMHkHGN2j7B4h1j9A2zBPvZwDyHaRYx3kJJt5HQLR7aJ86yB
                66KO+6qG56aK966C76GM/6lE4KVI8K1A6HOeXYUClKotKs0GtW6NxrBCa1qisyzQ2+YYhBlGaYrJMcHsGmPx
                jLD6htgCA+yhPkKkhxjrIiU6yKk2jkwLZ66J67yB+7KO57qG97aK776C/7FM4LlE8LVI6FOB8Jc875RKUKm3
                qLUbNPo1WuMKnXmJ3rrAYJ9jFGeY5Clm5wSLe4zVO8LmH2IPDhDCfcRoDyneRU52cKTbOLMtXGdN3BcNPFd1
                vDc1fHdV/A8VAk9lgi8lQm9Fwp8LRL7mea9SgVqzRaPboDWs0ZlW6C1LDLYFRmGOSZphdkyxuCZYPWNsvhH2
                wBAhNECM9JFiPeREF0eqgzPTxpVr4T5v4rls4L2u47ut4b+vEnisEHwuE3otEf5UJPKlQPRbng9qNWi0W7T6
                DTrjGr15hcG6xGhfYBLnmOUZFucUq3uCzTvG7h8hBIeI4QFStI8c7+FIdnGmO7iybdxnLTwXTbxXDXw3dfx3
                NQIPVYJPFUIvZcJvJSKfi0S/Foh9z7Oj0YBWt0Vn2KA3rTFYVhhtS0zCArM0x+KYYXVNsXkm2H1jhMAIMTRE
                igyQY30ciR7OVBdXpoM718Zz3sJ72cR33cB/WydwXyP4WCX0XCH8WibyqUT0S5HYtwLxH3l2tVrQ6bfojRsM
                5jVG6wqTfYlZXGCR51idM2zuKXbvBME/RgyOkMJD5OgAR7yPM9nDle7iznbwnLXxXrTwXTXx3zQI3NUJPtQI
                PVUJv1SIvJWJfi4R+1ok/r1A4meedzod6A1bDKYNRssak22FWVhikRZYHXNsrhl2zxTBN0EMjJFCI+TIEEds
                gDPRx5Xq4c508eQ6eM/b+C5b+K+bBG4bBO/rhB5rhJ+rRF4rRD+ViX0pEf9WJPGjQPJXnvd6PRiMW4zmDSbr
                GrN9hUVcYpUX2Jxz7O4ZgneK6J8gBcfI4RGO6BBnfIAr2ced7uHJdvGedfBdtPFftQjcNAneNQg91Ak/1Yi8
                VIm+VYh9LhP/WiLxvUjyZ4HU7zwfDAYwmraYLBvMtjUWYYVVWmJzLLC75gieGaJvihSYIIfGOCIjnLEhrsQA
                d6qPJ9PDm+viO+/gv2wTuG4RvG0Sum8QfqwTea4Rfa0S+1Qh/qVM4luJ5I8iqV8F0n/k2TEawWTeYrZusNjX
                WMUVNnmJ3blAcM8RvTMk/xQ5OMERHuOMjnDFh7iTAzzpPt5sD99ZF/9Fh8BVm+BNi9Bdk/BDg8hTnehLjdhb
                lfjnComvZZLfS6R+Fkn/LpD5M8+uyQRmyxaLbYNVWGOTVtgdSwTXAtEzR/LNkANTHKEJzsgYV2yEOzHEkxrg
                zfTx5Xr4z7sELjsEr9uEbluE75tEHhtEn+vEXmvEP1VJfKmQ/FYm9aNE+leRzB8Fsn/leWc2g8W6xWrfYBPX
                2OUVgnOJ6F4geefI/hmO4BRneIIrOsYdH+FJDvGmB/iyffxnPQIXXYJXHUI3bcJ3LSIPTaJPDWIvdeJvNRKf
                qyS/Vkh9L5P+WSLzu0j2zwK5v/O8t1jAattiEzbYpTWCY4XoWiJ5Fsi+OY7ADGdoiisywR0b40mM8KaG+DID
                /Lk+gfMewcsuoesO4ds2kfsW0ccmsecG8dc6iU81kl+qpL5VSP8ok/lVIvtHkdxfBc7+yfPBagWbfYtd3CDI
                a0TnCsm9RPYucPjnOIMzXOEp7ugET3yMNznClx7izw4InPUJXvQIXXUJ33SI3LWJPrSIPTWJvzRIvNVJfq6R
                +lol/b1C5meZ7O8SuT+LnP1d4PzfPDs2G9iFLYK0QXSskVwrZM8Sh2+BMzDHFZrhjkzxxCZ4E2N8qRH+zJBA
                bkDwvE/oskf4ukvktkP0vk3ssUX8uUnitUHyU53Ulxrpb1UyPypkf5XJ/VHi7K8i5/8UuPhPnl27HQRxiyhv
                kJxrZPcKh3eJ07/AFZzjDs/wRKd44xN8yTH+9IhAdkjwbEDook/4qkfkpkv0rkPsoU38qUXipUnyrUHqc530
                1xqZ71WyPyvkfpc5+7PE+d9FLv4tcPnfPO8EAURpi+TYILvWODwrnL4lrsACd2iOJzLDG5viS0zwp8YEMiOC
                uSGh8wHhyz6R6x7R2y6x+w7xxzaJ5xbJ1yapTw3SX+pkvtXI/qiS+1Xh7I8y53+VuPinyOV/Clz9L897UQRJ
                3iI7Nzjca5zeFS7/EndwgSc8xxud4YtP8ScnBNJjgtkRobMh4YsBkas+0Zsesbsu8YcOiac2yZcWqbcm6c8N
                Ml/rZL/XyP2scva7wvmfZS7+LnH5b5Gr/xa4/r88/w8Tk/C2
                """),
        ZlibFixture(
            data: .gradient, variant: "rle", firstBlockType: 2,
            outputCRC32: 0xA918_8010,
            base64:
                """
                eAEFwQNjnA2igNG2SeOMjRdjW7FV4+Pu3v8+tu3nnvPu3Tt4/2HLh90NO3trdg9WfDxasneyYF8x50A141Az
                5Ug34dgw5sQ04tQyRGEboBT6qKQeakcXjauD1tNG52uhDzQxhBoYI3VMsRrmRBVLqoI1U8aWK2E/LyJcFhCv
                87x//x4+7GzZ+bhhd3/Nx8MVe8dL9k8XHCjnHKpnHGmnHOsnnBjHnJpHKKxDlPYBKrGPWu6hcXbRujvovG30
                /haGYBNjuIEpWsccr2FJVrGmK9iyZexnJYSLIuJVAekmz4cPH2Bnd8vu3oaPB2v2jlbsnyw5UCw4VM050sw4
                1k05MUw4NY1RWEYobUNUwgC11Efj6KF1ddF5Ouh9bQyBFsZQE1OkgTlWx5KoYU1VsWUq2HNlhPMS4mUR6bqA
                fJtnZ2cHdj9u+bi/Ye9wzf7xioPTJYfKBUfqOcfaGSf6KafGCQrzGKV1hMo+RC0O0Mh9tM4eOncXvbeDwd/G
                GGxhCjcxRxtY4nWsyRq2dBV7toJwVka8KCFdFZFvCjju8uzu7sLHvS17Bxv2j9YcnKw4VCw5Ui041sw50c04
                NUxRmCYoLWNUthFqYYhGGqB19NG5eug9XQy+DsZAG1OohTnSxBJrYE3UsaVq2DNVhFwF8byMdFlCvi7iuC3g
                vM/z7uNH2Nvfsn+44eB4zeHpiiPlkmP1ghPtnFP9DIVxitI8QWUdo7aP0IhDtPIAnbOP3t3D4O1i9HcwBduY
                wy0s0SbWeANbso49XUPIVhHPKkgXZeSrEo6bIs67Aq6HPO/39mD/YMvB0YbDkzVHihXHqiUnmgWnujkKwwyl
                aYrKMkFtG6MRRmilITrHAL2rj8HTw+jrYgp0MIfaWCItrLEmtkQDe6qOkKkh5qpI5xXkyzKO6xLO2yKu+wLu
                xzwf9vfh4HDL4fGGo9M1x8oVJ+olp9oFCv0cpXGGyjxFbZ2gsY/RiiN08hC9c4DB3cfo7WHydzEHO1jCbazR
                FrZ4E3uygZCuI2ZrSGdV5IsKjqsyzpsSrrsi7ocCnqc8OwcHcHi05ehkw7FizYlqxalmiUK3QGmYozLNUFum
                aGwTtMIYnTRC7xhicA0wevqYfD3MgS6WUAdrpI0t1sKeaCKkGoiZOlKuhnxexXFZwXldxnVbwn1fxPNYwPuc
                Z/fwEI6OtxyfbjhRrjlVr1Bolyj1C1TGOWrzDI11itY+QSeO0csjDM4hRvcAk7eP2d/DEuxiDXewRdvY4y2E
                ZBMx3UDK1pHPajguqjivKrhuyrjvSngeinifCvhe8rw7OoLjky0nig2nqjUKzQqlbonKsEBtmqOxzNDapuiE
                CXppjMExwugaYvIMMPv6WAI9rKEutkgHe6yNkGghpppImQZyro7jvIbzsorruoL7toznvoT3sYjvuYD/Nc/7
                42M4Od1yqtygUK9Raleo9EvUxgUa8xytdYbOPkUvTjDIY4zOESb3ELN3gMXfxxrsYQt3sUc7CPE2YrKFlG4i
                Zxs4zuo4L2q4rqq4byp47sp4H0r4nor4XwoE3vJ8ODmBU8UWhWqDUrNGpVuhNizRmBZoLXN0thl6YYpBmmB0
                jDG5Rpg9Qyy+AdZAH1uohz3SRYh1EBNtpFQLOdPEkWvgPK/juqzhvq7iua3gvS/jeyzhfy4SeC0Q/JRn5/QU
                FMotSvUGlXaNWr9CY1yiNS/QWefo7TMM4hSjPMHkHGN2j7B4h1j9A2zBPvZwDyHaRYx3kJJt5HQLR7aJ86yB
                66KO+6qG56aK966C76GM/6lE4KVI8K1A6HOeXYUClKotKs0GtW6NxrBCa1qisyzQ2+YYhBlGaYrJMcHsGmPx
                jLD6htgCA+yhPkKkhxjrIiU6yKk2jkwLZ66J67yB+7KO57qG97aK776C/7FM4LlE8LVI6FOB8Jc875RKUKm3
                qLUbNPo1WuMKnXmJ3rrAYJ9jFGeY5Clm5wSLe4zVO8LmH2IPDhDCfcRoDyneRU52cKTbOLMtXGdN3BcNPFd1
                vDc1fHdV/A8VAk9lgi8lQm9Fwp8LRL7mea9SgVqzRaPboDWs0ZlW6C1LDLYFRmGOSZphdkyxuCZYPWNsvhH2
                wBAhNECM9JFiPeREF0eqgzPTxpVr4T5v4rls4L2u47ut4b+vEnisEHwuE3otEf5UJPKlQPRbng9qNWi0W7T6
                DTrjGr15hcG6xGhfYBLnmOUZFucUq3uCzTvG7h8hBIeI4QFStI8c7+FIdnGmO7iybdxnLTwXTbxXDXw3dfx3
                NQIPVYJPFUIvZcJvJSKfi0S/Foh9z7Oj0YBWt0Vn2KA3rTFYVhhtS0zCArM0x+KYYXVNsXkm2H1jhMAIMTRE
                igyQY30ciR7OVBdXpoM718Zz3sJ72cR33cB/WydwXyP4WCX0XCH8WibyqUT0S5HYtwLxH3l2tVrQ6bfojRsM
                5jVG6wqTfYlZXGCR51idM2zuKXbvBME/RgyOkMJD5OgAR7yPM9nDle7iznbwnLXxXrTwXTXx3zQI3NUJPtQI
                PVUJv1SIvJWJfi4R+1ok/r1A4meedzod6A1bDKYNRssak22FWVhikRZYHXNsrhl2zxTBN0EMjJFCI+TIEEds
                gDPRx5Xq4c508eQ6eM/b+C5b+K+bBG4bBO/rhB5rhJ+rRF4rRD+ViX0pEf9WJPGjQPJXnvd6PRiMW4zmDSbr
                GrN9hUVcYpUX2Jxz7O4ZgneK6J8gBcfI4RGO6BBnfIAr2ced7uHJdvGedfBdtPFftQjcNAneNQg91Ak/1Yi8
                VIm+VYh9LhP/WiLxvUjyZ4HU7zwfDAYwmraYLBvMtjUWYYVVWmJzLLC75gieGaJvihSYIIfGOCIjnLEhrsQA
                d6qPJ9PDm+viO+/gv2wTuG4RvG0Sum8QfqwTea4Rfa0S+1Qh/qVM4luJ5I8iqV8F0n/k2TEawWTeYrZusNjX
                WMUVNnmJ3blAcM8RvTMk/xQ5OMERHuOMjnDFh7iTAzzpPt5sD99ZF/9Fh8BVm+BNi9Bdk/BDg8hTnehLjdhb
                lfjnComvZZLfS6R+Fkn/LpD5M8+uyQRmyxaLbYNVWGOTVtgdSwTXAtEzR/LNkANTHKEJzsgYV2yEOzHEkxrg
                zfTx5Xr4z7sELjsEr9uEbluE75tEHhtEn+vEXmvEP1VJfKmQ/FYm9aNE+leRzB8Fsn/leWc2g8W6xWrfYBPX
                2OUVgnOJ6F4geefI/hmO4BRneIIrOsYdH+FJDvGmB/iyffxnPQIXXYJXHUI3bcJ3LSIPTaJPDWIvdeJvNRKf
                qyS/Vkh9L5P+WSLzu0j2zwK5v/O8t1jAattiEzbYpTWCY4XoWiJ5Fsi+OY7ADGdoiisywR0b40mM8KaG+DID
                /Lk+gfMewcsuoesO4ds2kfsW0ccmsecG8dc6iU81kl+qpL5VSP8ok/lVIvtHkdxfBc7+yfPBagWbfYtd3CDI
                a0TnCsm9RPYucPjnOIMzXOEp7ugET3yMNznClx7izw4InPUJXvQIXXUJ33SI3LWJPrSIPTWJvzRIvNVJfq6R
                +lol/b1C5meZ7O8SuT+LnP1d4PzfPDs2G9iFLYK0QXSskVwrZM8Sh2+BMzDHFZrhjkzxxCZ4E2N8qRH+zJBA
                bkDwvE/oskf4ukvktkP0vk3ssUX8uUnitUHyU53Ulxrpb1UyPypkf5XJ/VHi7K8i5/8UuPhPnl27HQRxiyhv
                kJxrZPcKh3eJ07/AFZzjDs/wRKd44xN8yTH+9IhAdkjwbEDook/4qkfkpkv0rkPsoU38qUXipUnyrUHqc530
                1xqZ71WyPyvkfpc5+7PE+d9FLv4tcPnfPO8EAURpi+TYILvWODwrnL4lrsACd2iOJzLDG5viS0zwp8YEMiOC
                uSGh8wHhyz6R6x7R2y6x+w7xxzaJ5xbJ1yapTw3SX+pkvtXI/qiS+1Xh7I8y53+VuPinyOV/Clz9L897UQRJ
                3iI7Nzjca5zeFS7/EndwgSc8xxud4YtP8ScnBNJjgtkRobMh4YsBkas+0Zsesbsu8YcOiac2yZcWqbcm6c8N
                Ml/rZL/XyP2scva7wvmfZS7+LnH5b5Gr/xa4/r88/w8Tk/C2
                """),
        ZlibFixture(
            data: .gradient, variant: "smallBlocks", firstBlockType: 2,
            outputCRC32: 0xA918_8010,
            base64:
                """
                eJwEwQkPgQAAgNEkSZIkSVJmZmZmZmZm5v//Dfd93+fnPUEQICT+EKUvYfmDpLyJqC9k7UlUf6AYd2LmDdW6
                ErcvaM6ZhHtC944k/QNGcU+qtMMsb0lXNljVNZnaCru+JNtY4DTn5Foz3PaUfGeC1x1T6I3w+0OCwZ8gOGEh
                GAwAMNxnZmZmZmZmZkmSJEmS5P//Dfd93/freQYIISAk/ZDkL2Hlg6y+iWgvFP1J1Higmndi1g3NvhJ3Luju
                mYR3wvCPJIMDZnFPqrTDKm9JVzbY1TWZ2gqnviTbWOA25+RaM7z2lHxngt8dU+iNCPpD/gTBCQvBYACA4ZqZ
                mZmZmZmZL0mSJEmS+P//Qu77vq/X84jBEEmSICT/kJUvYfWDor2J6C9U40nUfKBZd2L2Dd25EncvGN6ZhH/C
                DI4kxQGruCdV2mGXt6QrG5zqmkxthVtfkm0s8Jpzcq0ZfntKvjMh6I4p9EaI/p8gOG0hGA4AOPzib2ZmZmZm
                ZmZJkiRJkpTv/ync933fP88zJOgPEEJASPohyV/CygdZfRPRXij6k6jxQDXvxKwbmn0l7lzQ3TMJ74ThH0kG
                B8zinlRph1Xekq5ssKtrMrUVTn1JtrHAbc7JtWZ47Sn5zgS/O6bQG/EnCE57CAQAAAx/SZIkSZKkWjMzMzMz
                M2P+/59g7vu+j9fz+P0RwWCIIAgQEX+I0peo/EFS3sTUF7L2JK4/UIw7CfOGal1J2hc050zKPaF7R9LBASPc
                kyntMMtbspUNVnVNrrbCri/JNxY4zTmF1gy3PaXYmeB1x/i9P0Fw2kMgAABg2JckSZIkSdLMzMzMzMxs5v//
                CPd95b5fzzOm2B/hD4aEBAHC4g9R+hKRP0jKm6j6QtaexPQHinEnbt5QrSsJ+4LmnEm6J3QvIOUfMUoH0uU9
                ZmVHprrFqm3I1tfYjRW55hKntSDfnuN2ZhS6U7zehD+DdL5DIAAAcPi/JEmSJEnSmpmZmZmZMfP+D+G+7/v8
                8T3D53WHFHoD/P4/oSBASPwiSh/C8htJeRFRn8jag6h+RzFuxMwrqnUhbp/RnBMJ94juHUj6e4xgR6q4xSxt
                SJfXWJUVmeoSu7YgW5/jNGbkmlPc1oR8e4zXGfFjkM53CAQAAA7/mSRJkiRJWjMzMzMzM2be/x3c932fP75n
                +LzukEJvgN//JxQECIlfROlDWH4jKS8i6hNZexDV7yjGjZh5RbUuxO0zmnMi4R7RvQNJf48R7EgVt5ilDeny
                GquyIlNdYtcWZOtznMaMXHOK25qQb4/xOiN+DNL5DoEAAMDhf5MkSZIkSWtmZmZmZsbM+z+D+77v88f3DJ/X
                HVLoDfD7/4SCACHxiyh9CMtvJOVFRH0iaw+i+h3FuBEzr6jWhbh9RnNOJNwjuncg6e8xgh2p4haztCFdXmNV
                VmSqS+zagmx9jtOYkWtOcVsT8u0xXmfEj0E63yEQAAA4/HeSJEmSJGnNzMzMzMyYef9XcN/3ff74nuHzukMK
                vQF+/59QECAkfhGlD2H5jaS8iKhPZO1BVL+jGDdi5hXVuhC3z2jOiYR7RPcOJP09RrAjVdxiljaky2usyopM
                dYldW5Ctz3EaM3LNKW5rQr49xuuM+DFI5zsEAgAAh/9PkiRJkiStmZmZmZkZM+//CO77vs8f3zN8XndIoTfA
                7/8TCgKExC+i9CEsv5GUFxH1iaw9iOp3FONGzLyiWhfi9hnNOZFwj+jegaS/xwh2pIpbzNKGdHmNVVmRqS6x
                awuy9TlOY0auOcVtTci3x3idET8G6USHQAAAwPADJEmSJEmS1szMzMzMjJn3fwP3fd/nz/cMn9cdUugN8Pv/
                hIIAIfGLKH0Iy28k5UVEfSJrD6L6HcW4ETOvqNaFuH1Gc04k3CO6dyDp7zGCHaniFrO0IV1eY1VWZKpL7NqC
                bH2O05iRa05xWxPy7TFeZ8SPQTrRIRAAADD8AkmSJEmSpDUzMzMzM2Pm/Z/Afd/3+fM9w+d1hxR6A/z+P6Eg
                QEj8IkofwvIbSXkRUZ/I2oOofkcxbsTMK6p1IW6f0ZwTCfeI7h1I+nuMYEequMUsbUiX11iVFZnqEru2IFuf
                4zRm5JpT3NaEfHuM1xnxY5BOdAgEAAAMP0GSJEmSJGnNzMzMzMyYef8XcN/3ff58z/B53SGF3gC//08oCBAS
                v4jSh7D8RlJeRNQnsvYgqt9RjBsx84pqXYjbZzTnRMI9onsHkv4eI9iRKm4xSxvS5TVWZUWmusSuLcjW5ziN
                GbnmFLc1Id8e43VG/BikEx0CAQAAw2+QJEmSJElaMzMzMzMzZt7/Adz3fZ8/3zN8XndIoTfA7/8TCgKExC+i
                9CEsv5GUFxH1iaw9iOp3FONGzLyiWhfi9hnNOZFwj+jegaS/xwh2pIpbzNKGdHmNVVmRqS6xawuy9TlOY0au
                OcVtTci3x3idET8G6XyHQAAA4PAjJEmSJEmS1szMzMzMjJn3/9993/f543uGz+sOKfQG+P1/QkGAkPhFlD6E
                5TeS8iKiPpG1B1H9jmLciJlXVOtC3D6jOScS7hHdO5D09xjBjlRxi1nakC6vsSorMtUldm1Btj7HaczINae4
                rQn59hivM+LHIJ3vEAgAABx+hSRJkiRJ0pqZmZmZmTHz/n+77/s+f3zP8HndIYXeAL//TygIEBK/iNKHsPxG
                Ul5E1Cey9iCq31GMGzHzimpdiNtnNOdEwj2ieweS/h4j2JEqbjFLG9LlNVZlRaa6xK4tyNbnOI0ZueYUtzUh
                3x7jdUb8GKTzHQIBAIDDz5AkSZIkSVozMzMzMzNm3v9f933f54/vGT6vO6TQG+D3/wkFAULiF1H6EJbfSMqL
                iPpE1h5E9TuKcSNmXlGtC3H7jOacSLhHdO9A0t9jBDtSxS1maUO6vMaqrMhUl9i1Bdn6HKcxI9ec4rYm5Ntj
                vM6IH4N0vkMgAABw+B2SJEmSJElrZmZmZmbGzPv/6b7v+/zxPcPndYcUegP8/j+hIEBI/CJKH8LyG0l5EVGf
                yNqDqH5HMW7EzCuqdSFun9GcEwn3iO4dSPp7jGBHqrjFLG1Il9dYlRWZ6hK7tiBbn+M0ZuSaU9zWhHx7jNcZ
                8WOQzncIBAAADj9EkiRJkiRpzczMzMzMmHn//9z3fZ8/vmf4vO6QQm+A3/8nFAQIiV9E6UNYfiMpLyLqE1l7
                ENXvKMaNmHlFtS7E7TOacyLhHtG9A0l/jxHsSBW3mKUN6fIaq7IiU11i1xZk63Ocxoxcc4rbmpBvj/E6I34M
                0vkOgQAAwOGXSJIkSZIkrZmZmZmZGTPv/5f7vu/zx/cMn9cdUugN8Pv/hIIAIfGLKH0Iy28k5UVEfSJrD6L6
                HcW4ETOvqNaFuH1Gc04k3CO6dyDp7zGCHaniFrO0IV1eY1VWZKpL7NqCbH2O05iRa05xWxPy7TFeZ8SPQTrf
                IRAAADj8FEmSJEmSpDUzMzMzM2Pm/f9x3/d9/vie4fO6Qwq9AX7/n1AQICR+EaUPYfmNpLyIqE9k7UFUv6MY
                N2LmFdW6ELfPaM6JhHtE9w4k/T1GsCNV3GKWNqTLa6zKikx1iV1bkK3PcRozcs0pbmtCvj3G64z4MUjnOwQC
                AACH3yJJkiRJkrRmZmZmZmbMvP8f7vu+zx/fM3xed0ihN8Dv/xMKAoTEL6L0ISy/kZQXEfWJrD2I6ncU40bM
                vKJaF+L2Gc05kXCP6N6BpL/HCHakilvM0oZ0eY1VWZGpLrFrC7L1OU5jRq45xW1NyLfHeJ0RPwbpRIVgAADA
                8GPMzMzMzMzMzFqSJEmSSN6/3Pd9nz/fM3xed0ihN8Dv/xMKAoTEL6L0ISy/kZQXEfWJrD2I6ncU40bMvKJa
                F+L2Gc05kXCP6N6BpL/HCHakilvM0oZ0eY1VWZGpLrFrC7L1OU5jRq45xW1NyLfHeJ0RPwbpRIdAAADA8Gsk
                SZIkSZLWzMzMzMyMmfef+77v8+d7hs/rDin0Bvj9f0JBgJD4RZQ+hOU3kvIioj6RtQdR/Y5i3IiZV1TrQtw+
                ozknEu4R3TuQ9PcYwY5UcYtZ2pAur7EqKzLVJXZtQbY+x2nMyDWnuK0J+fYYrzPixyCd6BAIAAAYfo4kSZIk
                SdKamZmZmZkx8/7u+77Pn+8ZPq87pNAb4Pf/CQUBQuIXUfoQlt9IyouI+kTWHkT1O4pxI2ZeUa0LcfuM5pxI
                uEd070DS32MEO1LFLWZpQ7q8xqqsyFSX2LUF2focpzEj15zitibk22O8zogfg3SiQyAAAGD4PZIkSZIkSWtm
                ZmZmZsbM87vv+z5/vmf4vO6QQm+A3/8nFAQIiV9E6UNYfiMpLyLqE1l7ENXvKMaNmHlFtS7E7TOacyLhHtG9
                A0l/jxHsSBW3mKUN6fIaq7IiU11i1xZk63Ocxoxcc4rbmpBvj/E6I34M0okOgQAAgOEHSZIkSZIkrZmZmZmZ
                GTOv777v+/z5nuHzukMKvQF+/59QECAkfhGlD2H5jaS8iKhPZO1BVL+jGDdi5hXVuhC3z2jOiYR7RPcOJP09
                RrAjVdxiljaky2usyopMdYldW5Ctz3EaM3LNKW5rQr49xuuM+DFIJzoEAgAAhl8kSZIkSZK0ZmZmZmZmzDy+
                +77v8+d7hs/rDin0Bvj9f0JBgJD4RZQ+hOU3kvIioj6RtQdR/Y5i3IiZV1TrQtw+ozknEu4R3TuQ9PcYwY5U
                cYtZ2pAur7EqKzLVJXZtQbY+x2nMyDWnuK0J+fYYrzPixyCd6BAIAAAYfpIkSZIkSdKamZmZmZkx8/bu+77P
                n+8ZPq87pNAb4Pf/CQUBQuIXUfoQlt9IyouI+kTWHkT1O4pxI2ZeUa0LcfuM5pxIuEd070DS32MEO1LFLWZp
                Q7q8xqqsyFSX2LUF2focpzEj15zitibk22O8zogfg3SiQyAAAGD4TZIkSZIkSWtmZmZmZsbM07vv+z5/vmf4
                vO6QQm+A3/8nFAQIiV9E6UNYfiMpLyLqE1l7ENXvKMaNmHlFtS7E7TOacyLhHtG9A0l/jxHsSBW3mKUN6fIa
                q7IiU11i1xZk63Ocxoxcc4rbmpBvj/E6I34M0okOgQAAgOFHSZIkSZIkrZmZmZmZGTMv777v+/z5nuHzukMK
                vQF+/59QECAkfhGlD2H5jaS8iKhPZO1BVL+jGDdi5hXVuhC3z2jOiYR7RPcOJP09RrAjVdxiljaky2usyopM
                dYldW5Ctz3EaM3LNKW5rQr49xuuM+M0m8tF/2+iH/+1iH/wHABOT8LY=
                """),
        ZlibFixture(
            data: .runs, variant: "level0", firstBlockType: 0,
            outputCRC32: 0x3EED_0778,
            base64:
                """
                eAEBoA9f8FNTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NTU1NT
                U1NTU1NTU1NTU1NTU1PDfXh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eI60TU1NTU1NTU1NTU1N
                TU1NTU23SC8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8v
                Ly8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vL21GPT09PT09
                PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09GeVwcHBw
                JEy7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7ug41hYWFhYWFhYWFhY
                WFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhY
                WFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWPx4dHR0dHR0dHR0dHT6
                jLGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGx
                sbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxlVyvr6+vr6+vr6+vr6+vr6+vr6+vr6+v
                r6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+v
                r6+vr6+vr6+vr6+vr7UyEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhIS
                EhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhJT/pOT
                k5OTk5OTk5OTk5OTk5OTk9EjLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLEXtTExMTExMTExMTExMTExMTExM
                TExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExM
                TExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTEzpyZmZmZmZmZmZmZmZmZmZ
                mZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmZmQ19////////////////////
                /////////////////////9wBMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDBRVSwsLCws
                LCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCws
                LCwsLCwsLCwsLCwsLCwsLCwsLCwsLGOgsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCw
                sLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwx23u7u7u
                7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u
                7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7u7uTMNjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2
                NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2
                NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NtAyQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBA
                QEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAlpHd3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d3d
                3d3d3d3d3d3dQ2smJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYm
                JiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJqrYfHx8fHx8
                fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8
                fHx8fHx8fHx8fNYWdXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1dXV1EaZa
                WlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaSk6GhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaG
                hoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhoaGhh9RU1NTU1NTU1NTU1NTU1NTU1M8ARoaGhoa
                GhYUxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxsbGxlT7RERERERERERERERERERERERERERERERERERERERE
                RERERERERERERERERERERERERERERERERERERERERERERERERFsaODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4
                ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODghkgMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMD
                AwMDAwMDAwMDAwMDAwMDAwMDAwMDAwPrBJ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ2dnZ2d
                nZ2dnZ2dnZ2d6Pj6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6
                +vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6
                +vr6SnOkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSkpKSk
                pKSkpKSkpKSkpKSkpKSkpKQv/G1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1t
                bW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1t8xhtbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbW1t
                bW1tbW1tbcTBYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiJV2jo6Ojo6Ojo6Oj
                o6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Oj
                o6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojo6Ojnbmfn5+fn5+fn5+fn5+fn5+fn5+fn5+fn5+fn5+fn5+f
                n597qMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTE
                xMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTEu93b29vb29vb29vb29vb29vb29vb
                29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vbp70lJSUlJSUlJSUlJSUlJSUlJSUl
                JSUlJSUlJSUlJSUlJSUlJSUlJSUlJSUlJfcAVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRU
                VFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFTO6+vr
                6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6+vrYa+ysrKysrKysrKysrKysrKysrKysrKysrKysrKysrKysrKy
                srKysrKysrKysrKysrKysrKysrKysrKy+0IWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYW
                FhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWn/fb29vb29vb29vb29vb29vb29vb29vb
                29vb29vb29vb29vb29vb29vb29vb2yUoVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRU
                VFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVFRUVGgM
                IiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIiIi
                IiIiInYGLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vLy8vEqf6+vr6+vr6
                +vr6+vr6+vr6+vr6+vr6+vr6+vr6+vr6fFfT09PT09PIkBcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcX
                FxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcXFxcJ9YmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJ
                iYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJiYmJ
                iYmJiYmJiYmJiYnqspaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaWlpaW
                lpaWlpaWqUmPj4+Pj4+Pj4+Pj4+Pj6GwtbW1tbV08Pb29vb29vb29vb29vb29vb29vb29vb29vb29vb29vb2
                9vb29vb29vb29vb29vb2p8YUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU
                FEo6tra2tra2tra2tra2trbfjZqampqampqampqampqampqampo6sA4ODg4ODg4ODg4ODg4ODg4ODg4ODg4O
                Dg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg4ODg6MvhAm
                """),
        ZlibFixture(
            data: .runs, variant: "level1", firstBlockType: 1,
            outputCRC32: 0x3EED_0778,
            base64:
                """
                eAELDqYGOFxbQQj0bfFFB9s99OkLct1sKQOSTwuAQMVnN4lgweOIgQN/KkoQ4FfPRnqAqTHraQ62GgnRDwT/
                m4wBLirr4AKub30GGLw8OZMCwFv7Hz+4w2hAFAgMxRVElIsnL9hAY3A89x0NwZMzZgMILhg5UAymTbxLJHDO
                VqMfWHWjhrrgmlgpiUBwWRR+4OXXRgUgH4hRfdswSoGBmMgxPCDktwvlIFrKgkygOImZDPCaZS5p4MWPXwMC
                vIqXUA/o/8mlDvgsQbQ5Rw4mEQ1UYxfTB8zdOZ8QqF5xhB5g993blIDle1VJAN8ZQmgLzr3GCxLXbyIb/HYS
                oyKY/52UUFfVoG2wQUzP4FGiHJSxkdoRElpOoGCrCb8MBicmiFMOOL920hq82jSNTLDSsx8FLNywFQRKPnwj
                DSw/JkIa8LLahgLu987CBFYb+CgBAIy+ECY=
                """),
        ZlibFixture(
            data: .runs, variant: "level6", firstBlockType: 1,
            outputCRC32: 0x3EED_0778,
            base64:
                """
                eJwLDqYGOFxbQQj0bfFFB9s99OkLct1sKQOSTwuAQMVnN4lgweOIgQN/KkoQ4FfPRnqAqTHraQ62GgnRDwT/
                m4wBLirr4AKub30GGLw8OZMCwFv7Hz+4w2hAFAgMxRlGFIPkBRtoDI7nvqMheHLGbADBBSMHisG0iXeJBM7Z
                avQDq27UUBdcEyslEQgui8IPvPzaqADkAzHqYhtGKTAQEzmGB4T8dqEcREtZkAkUJzGTAV6zzCUNvPjxa0CA
                V/ES6gH9P7nUAZ8liFZ65GAS0UA1djF9wNyd8wmB6hVH6AF2371NCVi+V5UE8J0hhLbg3Gu8IHH9JrLBbycx
                KoL530kJZVUNGocbGGTwKFEOythI7coILSdQBNWEXwaDExPEKQecXztpDV5tmkYmWOnZjwIWbtgKAiUfvpEG
                lh8TIQ14WW1DAfd7Z2ECqw18lAAAjL4QJg==
                """),
        ZlibFixture(
            data: .runs, variant: "level9", firstBlockType: 1,
            outputCRC32: 0x3EED_0778,
            base64:
                """
                eNoLDqYGOFxbQQj0bfFFB9s99OkLct1sKQOSTwuAQMVnN4lgweOIgQN/KkoQ4FfPRnqAqTHraQ62GgnRDwT/
                m4wBLirr4AKub30GGLw8OZMCwFv7Hz+4w2hAFAgM1aEZSF6wgcbgeO47GoInZ8wGEFwwcqAYTJt4l0jgnK1G
                P7DqRg11wTWxUhKB4LIo/MDLr40KQD4Qoy62YZQCAzGRY3hAyG8XykG0lAWZQHESMxngNctc0sCLH78GBHgV
                L6Ee0P+TSx3wWYJopUcOJhENVGMX0wfM3TmfEKhecYQeYPfd25SA5XtVSQDfGUJoC869xgsS128iG/x2EqMi
                mP+dlFBW1QihA8jgUaIclLGR2pURWk6gCKoJvwwGJyaIUw44v3bSGrzaNI1MsNKzHwUs3LAVBEo+fCMNLD8m
                QhrwstqGAu73zsIEVhv4KAEAjL4QJg==
                """),
        ZlibFixture(
            data: .runs, variant: "fixed", firstBlockType: 1,
            outputCRC32: 0x3EED_0778,
            base64:
                """
                eAELDqYGOFxbQQj0bfFFB9s99OkLct1sKQOSTwuAQMVnN4lgweOIgQN/KkoQ4FfPRnqAqTHraQ62GgnRDwT/
                m4wBLirr4AKub30GGLw8OZMCwFv7Hz+4w2hAFAgMxRlGFIPkBRtoDI7nvqMheHLGbADBBSMHisG0iXeJBM7Z
                avQDq27UUBdcEyslEQgui8IPvPzaqADkAzHqYhtGKTAQEzmGB4T8dqEcREtZkAkUJzGTAV6zzCUNvPjxa0CA
                V/ES6gH9P7nUAZ8liFZ65GAS0UA1djF9wNyd8wmB6hVH6AF2371NCVi+V5UE8J0hhLbg3Gu8IHH9JrLBbycx
                KoL530kJZVUNGocbGGTwKFEOythI7coILSdQBNWEXwaDExPEKQecXztpDV5tmkYmWOnZjwIWbtgKAiUfvpEG
                lh8TIQ14WW1DAfd7Z2ECqw18lAAAjL4QJg==
                """),
        ZlibFixture(
            data: .runs, variant: "huffmanOnly", firstBlockType: 2,
            outputCRC32: 0x3EED_0778,
            base64:
                """
                eAEFwUGo/D5eAHCXiiBowTC0+ruI1QkeAhn2EMpioWgV/ZMnLP2KYdSD40WQwB98IwN2r4WC+tSHhT4os5Li
                qpckxd8TKR7EMCqIKD8QIQ4eVFAHiyDOSnZx/Hzquq7ruq7ruq7ruq7ruq7ruq7ruq7ruq7ruq7ruq7ruq7r
                uq7ruq7ruq7ruq7ruq7ruq7r+s+/cjqdTqfT6XQ6nU6n0+l0Op1Op9PpdDqdTqfT6XT6jT96enp6enp6enp6
                enp6enp6evrjH6eUUkoppZRSSimllFJKKaWUUkoppZRSSimllFJKKaWUUkoppZRSSimllFJKKaWUUkoppZRS
                SimllFJKKaWUUkoppZRSSqn8saIoiqIoiqIoiqIoiqIoiqIoiqIoiqIoiqIoiqIoiqIoiqIoiqIoiqIoiqIo
                iqIovudfP//8889/gC/LsizLsizLsizLsizLsizLsizLsizLsizLsizLsizLsizLsnz1n4UQQgghhBBCCCGE
                EEIIIYQQQgghhBBCCCGEEEIIIYQQQgghhBBCCCGEEEIIIYQQQgghhBBCCCGEEEIIIYQQQgghhBBCCCGEEEII
                IYQQ3zw9Pz8/Pz8/Pz8/P4dfs9Zaa6211lprrbXWWmuttdZaa6211lprrbXWWmuttdZaa6211lprrbXWWmut
                tdZaa6211lprrbXWWmuttdZa+zs/q7XWWmuttdZaa6211lprrbXWWmuttdZaa6211lprrbXWWmuttdZaa621
                1lprrbXWWmuttdZaa6211lprrfXHLyKEEEIIIYQQQgghhBBCCCGEEEIIIYQQQgghhBBCCCGEEEIIIYQQQggh
                hBBCCCGEEEIIIYQQQgghhBBCCCGEEEIIIYTq/3t9fX19fX19fX19fX19fX19ff277yeEEEIIIYQQQgghhBBC
                CCE/+p+cc84555xzzjnnnHPOOeecc84555xzzjnnnHPOOeecc84555xzzjnnnHPOOeecc84555xzzjnnnHPO
                Oeecc84555xzzjnnnHPOOeecc8455//+V8MwDMMwDMMwDMMwDMMwDMMwDMMwDMMwDMMwDMMwDMMwDMMwDMMw
                DMMwDMMwDN/5lcfj8Xg8Ho/H4/F4PB6Px+PxeDwej8fj8Xg8Hv/4hd1ut9vtdrvdbrfb7Xa73W632+12u91u
                t9vtdrvdbrfb7b78U4QQQgghhBBCCCGEEEIIIYQQQgghhBBCCCGEEEIIIYQQQgghhBBCCCGEEEIIIYQQQggh
                hBBCCCGE/MJXjTHGGGOMMcYYY4wxxhhjjDHGGGOMMcYYY4wxxhhjjDHGGGOMMcYYY4wxxhhjjDHGGGOMMcYY
                Y4wxxhhj/kKu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu67qu
                67qu67qu67qu67qu67r+y18zxhhjjDHGGGOMMcYYY4wxxhhjjDHGGGOMMcYYY4wxxhhjjDHGGGOMMcYYY4wx
                xhhjjDHGGGOMMcYYY4wxxhhjjDHGGGOMMcYYY4wxxtjffrEsy7Isy7Isy7Isy7Isy7Isy7Isy7Isy7Isy7Is
                y7Isy7Isy7Isy7Isy7Isy7Isy7Is+9+6Xq/X6/V6vV6v1+v1er1er9fr9Xq9Xq/X6/V6vV6v1+v1ev2RX8IY
                Y4wxxhhjjDHGGGOMMcYYY4wxxhhjjDHGGGOMMcYYY4wxxhhjjDHGGGOMMcYYY4wxxhhjjDHGGGOMMcYYY4wx
                xhj/4T80TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0TdM0
                TfP3yfF4PB6Px+PxeDwej8fj8Xg8Ho/H4/F4PB6Px+PxeDwej8fj8Xg8Ho/H43f93n6/3+/3+/1+v9/v9/v9
                fr/f7/f7/X6/3+/3+89+sm3btm3btm3btm3btm3btm3btm3btm3btm3btm3btm3btm3btm3btm3btm3btm3b
                tm3b9nu/XNd1Xdd1Xdd1Xdd1Xf/QFz58+PDhw4dkc7lcLpfL5XK5XC6Xy+VyuVwul8vlcrlcLvCNqqqqqqqq
                qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqp+5kOe53me53me53me53me53me
                53me53me53me53me53me53me53me53me5/n3/XYURVEURVEURVEURVEURVEURVEURVEURVEURVEURVEURVEU
                RVEURdHtW8dxHMdxHMdxHMdxHMdxHMdxHMdxHMdxHMdxHMdxHMdxHMdx/Lf/DSGEEEIIIYQQQgghhBBCCCGE
                EEIIIYQQQgghhBBCCCGEEEIIIYQQQgghhBBCCCGEEEIIIYQQQgghhBBCCCGEEEIIIYQQQgghhBA+++VpmqZp
                mqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmqZpmug3pZRSSimllFJK
                KaWUUkoppZRSSimllFJKKaWUUkoppZRSSimllFJKKaWUUkr5398tpZRSSimllFJKKaWUUkoppZRSSimllFJK
                Kd2fHQ6Hw+FwOBwOh8PhcDgcDofD4XA4HA6Hw+FwOBwOh8PhcDgcDtufU0oppZRSSimllFJKKaWUUkoppZRS
                SimllFJKKaWUUkoppZRSSimllFJKKaWUUkoppZRSSimllFJKKaWUUkoppdT4J+fz+Xw+n8/n8/l8Pp/P5/P5
                fD6fz+fz+Xw+n8/nX/1955xzzjnnnHPOOeecc84555xzzjnnnHPOOeecc84555xzzjnnnHPOOeecc84555xz
                zjnnnHPOOeecc84555xzy9V777333nvvvffee++9995777333nvvvffee++9995777333nvv/df+dLvdbrfb
                7Xa73W632+12u91ut9vtdrvdbrfb7Xa73W632+12u91uv/4tAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
                AAAAAAAAAAAAAAAAAAAAAAAAAADwN7fb7Xa73W632+12u91ut9vtdrvdbrfb7Xa7/bye53me53me53me53me
                53me53me53me53me53me53me53me53me53me53me52/8cJIkSZIkSZIkSZIkSZIkSZIkSZIkSZIkSZIkSZIk
                SZIkSZIkSZIkSZIkSZIkSZIkSZIkSZIkSZIkyfnr3nvvvffee++9995777333nvvvffee++99957v/1BAAAA
                AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIBf/I4sy7Isy7Isy7Isy7Is
                y7Isy7Isy7Isy7Isy7Isy7Isy7Isy7Isy7Isy7Isy7Isy7Isy37l2yillFJKKaWUUkoppZRSSimllFJKKaWU
                UkoppZRSStHXQgghhBBCCCGEEEIIIYQQQgghhND89KdPnz59+vSXv5mmaZqmaZqmaZqmaZqmaZqmaZqmaZqm
                aZqmaZqmaZqmaZqmaZqmaZqmaZqmaZqmaZqm6bf/T9d1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1
                Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xdd1Xfcfc9/3fd/3fd/3fd/3fd/3fd/3fd/3
                fd/3fd/3fd/3fd/3fd/3fd/3fd/3/R/8xMvLy8vLy8vLy8vLy8vL75qPHz9+/Pj8X/f7/X6/3+/3+/1+v9/v
                9/v9fr/f7/f7/X6/3+/3+/1+v9/v9/v9fr/fv3bZbDabzWaz2Ww2m81ms9lsNpvNZrPZbDabzWaz2Ww2m81m
                s9lsNpvNZvPZl97f39/f39/f39/f39/f/+nX397e3t7e3t7e3t7e3t7e3t7e3r5k4jiO4ziO4ziO4ziO4ziO
                4ziO4ziO4ziO4ziO4ziO4ziO4ziO4ziO4ziO4ziO4/8HjL4QJg==
                """),
        ZlibFixture(
            data: .runs, variant: "rle", firstBlockType: 1,
            outputCRC32: 0x3EED_0778,
            base64:
                """
                eAELpgo4XFtBCPRt8UUH2z306Qty3WwpA5JPC4BAxWc3iWDB44iBA38qShDgV89GeoCpMetpDrYaCdEPBP+b
                jAEuKuvgAq5vfQYYvDw5kwLAW/sfP7jDaEAUCAzVoRlIXrCBxuB47jsagidnzAYQXDByoBhMm3iXSOCcrUY/
                sOpGDXXBNbFSEoHgsij8wMuvjQpAPjAYHdgwSoGBmMgxPCDktwvlIFrKgkygOImZDPCaZS5p4MWPXwMCvIqX
                UA/o/8mlDvgskUssOHIwiWigGruYPmDuzvmEQPWKI/QAu+/epgQs36tKAvjOEEJbcO41XpC4fhPZ4LeTGBXB
                /O+3SQCqGiF0ABk8SpSDMjZ9EoHQ8l/4QU34ZTA4MUGccsD5tZPW4NWmaWSClZ79KGDhhq0gUPLhG2lg+TER
                0oCX1TYUcL93Fiaw2sBHCQAAjL4QJg==
                """),
        ZlibFixture(
            data: .runs, variant: "smallBlocks", firstBlockType: 1,
            outputCRC32: 0x3EED_0778,
            base64:
                """
                eJwKDqYGOFxbQQj0bfFFB9s99OkLct1sKQOSTwuAQMVnN4lgweOIgQN/KkoQ4FfPRnqAqTHraQ62GgnRDwT/
                m4wBLirr4AKub30GGLw8OZMCwFv7Hz+4w2hAFAgMxRlGFIPkBRtoDI7nvqMheHLGbADBBSMHisG0iXeJBM7Z
                avQDq27UUBdcEyslEQgui8IPvPzaqADkAzHqYhtGKTAQEzmGB4QA9NuFchAtZUEmUJzETAZ4zTKXNPDix68B
                AV7FS6gH9P/kUgd8liBa6ZGDSUQD1djF9AFzd84nBKpXHKEH2H33NiVg+V5VEsB3hhDagnOv8YLE9ZvIBr+d
                xKgI5n8nJZRVNWgcbmCQwaNEOShjI7UrI7ScQBFUE34ZDE5MEKcccH7tpDV4tWkamWClZz8KWLhhKwiUfPhG
                Glh+TIQ04GW1DQXc752FCawA28BHCQAAjL4QJg==
                """),
        ZlibFixture(
            data: .textLong, variant: "smallBlocks", firstBlockType: 2,
            outputCRC32: 0x47A9_56D3,
            base64:
                """
                eJxkUFEWwiAM+98pegAvxSZsKBOcQ6enlzYMu+d7e6OkSRqa/GYDubjRifgL5vOmjvoQhyv52YyW4tMuNJhh
                shVGXcgd3bMvwNm6YFbbTrZLYqy0AC55To9qjD+Tta9IdieINF0CCkcq+LHHUVKDxRG9cq4tA9/QL2/YZRjO
                rX6Jr1uNpI25xjgwkAc8jcNJ0v1mtnmC4/a/U9RqdQCOT1NrwlgFTNm5Lxtll8MwCMPgd265A2zaQ++vJflw
                49CpUgUhv7bh/frUHDMKWMPsPORIDSg2zq8NBqrAZq0LWCYmsI7r1wDTWiZzbLxL/DiNShvIGhtjllnkHdMd
                THnzNU39nKMkO4K6JZzDfIkvFehRzpIdDTK9NxAa3AZzFBwCqnW3DCDpzkodsFvxmduqKtOR6mLoxtQlkWu5
                p9OpU/nVHdcGFG3AOFWSWFZXGxiZe6olNVFm6zo5NPaa06kTEzj6etzItelwYMsfczoej9K/54I/0X61POuj
                ARe63hoCkitP8L3f2klYx1byH5tVkAQxDILuvrQP6P9nm4ACyV46bWw0KmC6Idi03CFyru1fmVo7KhPTbUfE
                NsMN9+AIqjveEmz5NQ1WOPqC4y6KS7xXDl50QrLXFGTZQsawjCeFYm9Nu+rnDWyCkPZOZGVtIut9HNJ40Azd
                /HL9QuDyqbfqleVxHk7CORju2L4SrFYvxDUfE96vQRi2zkTo4ALYsJXcrW2rPxTkfWGqwmWkrHGbEDQ8iROq
                1J04/ip+vU+IkTpaZAALzg6FGI3UK9yXJl7OJJCznBE2LYcznXrfDRBvmxHyPTTlviAl88QZB8+B4p7Yk53z
                kLebOLrDYibZj+0yRoIYBmFgz3vz/7nJMUgrSJMmiW1ALLIyegMObLJS/3/oGGlpILiHR1A47/aJe4m7uzNa
                i8JS4Z6ZDoWRMuoliCxIdFsQR5K48UBy2pkUTic5C05ZEFEtfm0bXaEbIIrP3iWFCztLFdrKAkwfQ9AEiRYf
                kHJGDjK+mG/teUHkbmZxUTfHFfeJVr0Qn1RewUzibiSTKs5U92aQMQNBtk4LXwogrXu2Rq7J/jmqjSEuAPBR
                Ikw0Ltm02SW4l7GvJtf6Vgd5ug66WUIk92/mGRfjd75dBQQiHFp/iGbKSLuwLxj263KYpGnFlIa5XelmfJ4P
                OU0uq+eNxZpd+aPDXG4YhmEYevcUGTL7o4BkkY92ei0CW5b4UwHVvm+hHYzxNuFkS6Lk0oM3wk+4He2iHz+r
                SCV7e2XdxayaJJoZ5B69xWwjIXprFZHhGrWEDuN396g+RlXTIXfr1onPrQt/U2i2OZlUhn/23iwip3Vy9gq1
                mHlEI5V7fGE9XhaITNDJG4XEJDzLBL3jgWeW1/Z5fBQhLei5gB30ZtE6RSLXFBveOd87IOz9e0jByJ9PqUmC
                GutgPEQ7YEhPyPgypdI/MRIOTbY3VCBkjQe1CwBeQpFRQfAnc3Jlg+M45EVXvuzotA3dr4BRvRwm9iO6uEn6
                lMJwhawvmdQ98aFQFVUvXbKOHEbJH39smEkOA0EIA+/93vxfySHgKuAy0ki90mAbG9O2R3O5BVmYqF8tREyc
                KhDqofbH2pACBiFplEY9dlo1l4sZ/2z3RZ1HpF5Ij20YGs/Mc+gYuuBDlNQ1HZtR1LCEG9XCcqq0aEw298By
                xwLDcVbo/eYOKzV+swbxnttjvZBDM21FJtxpjQj5HZ30tA2fkKFksYmQ3+y02euOFCxej0H70a3ZxR+QMNQe
                tTKPl2oh0D1D6BYVWMF5kMAji7jB79dVfXGy/8LCrxNyHWlVIaQ44gvBWK4D4L9ijrl8+ySsI85uC4BhQyDq
                cTzN0W0tf8chc3jKQQoliV7YOqLYKEz2SBv8nDGTypf8a0uXW9uiX7rMHQdCIIahPefl/tqCSfxszzYUCIkw
                xJ84lWGAe08MEdMAhRhBgPcM79WuCOrpE6FAWE579In+iFwv/w5A565IRu1AXzmlbRFqcSOv1+5/X7QeYwCR
                Ywu3J3oaZHe+kXISCwj+g08LOoe4ZPRs+Efwl4GHdMPPGazxA3XRvON5FptPM40b1QHJm1WiAj9q9EapmVhz
                EZ3YfKQykfqQesfC7ilZIWncKqWK+HffSNFD699Ge1oG+X5gjbqgWbh1odkum/EJa52f5SmkdM/tlh9rm7Ih
                a61fcFA0hgpXzVOu5oI5PqjLO6abIlIiEj+8humkiyWrLHU4Rzby7KHc4kI4L6bmlOjujz0z99RfjjiRyV9P
                0pHEj1EzxmIYhkHo7qN2zv1fB0fwkTRkbuvGMsKA0mjKJLpM1rzsFS7+GW7lF1SGwGncWQ5HwLLVMAUf4k/z
                VdaBGKYvIXRCrQUQ2pzD+acZnWfD1Ou71WvxJiKLLc8Z6rrntwIhP5C66eE5HZtIbbyg4PNOaWMsnBAXLAeo
                d0TeLCq3TIezWsw57bdBrqTB58Zz0Vgsj4lfwXOTTKm36j8k3XTTUhm4rBGNlK0bgesmjabVPDE8n7Zxu6t8
                /xveboR+V21p4p5nuwNS/BmOj1qVStUcB/Gh7KzpyaDhN+hR4cGKEBrBrf1dhfs4M2DNjTROzH3nnFFMZbCp
                4F5my/oLTdW4lC937eYsrcS8K/boluoU2bKffkjsrRr/dJoxFsMwCEN3n6WX6/2XDo39v4Sz9bVOHWMQArFj
                +STT0pXoh92JLm9XnEbWV2SUTfnbsI6oiII0OWCiwuMgH08NHeciVTug2WSqBENdMn2MemA7u/qvEVKDwZan
                l4QPnYMa5+mzKxLevMFi1fcXzTS3BxdU+Dmepp2WnP0OQs9dCMKNRysADIbiPcZQmD/fygnIwZCzsckKrxhd
                /J74CKoQ41xvkpuN9TylXWQPESR+/w69ZHb/C8yhX0q0yn152SAi9n4hs8AOS4VuUhMckzxV67IPK2fYZlH5
                lW0SfC0RW1qHAcf3B5B2BrrNJRmx4V37tU67x0cYyx9UcM+3DrtKjTv54x8SuiYHk2tjwziYoV7xgcAfneaS
                BDEQgtC95839axaJ8lBmn6p0+wGkbYtwO6tEtA62Hdm0AMeaOs77s2pV0Hr8tWJjkMwC8YKA+MKBVFC2QBa0
                W5LwAjFS4F7w+BCrU66+Ti+HgpOkodrnMbQ2HKh0Lnlui9g2DY/+4AHHDZ7PnjlQKKS+49mc2EdjqTBlaqWi
                gUKmkqIdeaRiuZJ+c4jVvORQXg/RcFp0sqZp9ZvKQE6dNLcBh1BBlRHPzNDetR1ON1gzE6v9z5BwnCHfX0X+
                9u4mXZAPmtCXVA2oi7Jh03eSttUgCpP823ODvmHxhQUbzwbtEFb5H53G4MWXLXQAedpBPKt1f3hKRSMo2fut
                RIU7FVCQnsc1MTVvLm5Rnsep+tFtxjgMxTAI3f9Ju1b691eXEB7Y3asmtQ3GxH1cim7AIHl870KIqlfmXxl3
                JN5P2T/Djr7g4UxCNOKtbxtlWHsxCubNc6TgKZeE55qCfk+eOLF7nt39s6M1WS7+WS0zkxfjDqN6OlVD6jnx
                o586yjgniBV5yVDdbh6GyGK3s4rM4Ya1bPEvXGeuAAGlVg5iQ32cDY/5yrtaW/YAJQ15oZBtumVgZm/fONkr
                eLP5CB94SWNRC0xO8h3Po/1ucSQl3aAQpqUgr+Iop6pnyGYllAruKPdKJ86CxZjZvuGBr0+TDcdOaLFi9JE9
                W29eaZV/2Thowz0WUenQupYeaL3AjgIu9WA2cBH7ym47rkQ2GY7CJxZN7r0PtlmWHo5+bJvLDcRACEPvVLEF
                pKqtIf1rDyuwn+GSUxQNPzPY5O8CGc/bfNJHj/10E2SaJkjWsNzkzcm8WpMVezCzznhuD74ZOMdDLC8kIxKA
                UnAqiUjf5nLY8LbT912l4SJYYtO8PquSHbMubsI39rldIypsEL2dGvq6eb8MEJg65IKCdnLQ8udYlsTci2pG
                cczn+kQlEFnilgrZlMJ+m0c/xmpMTqQqJzIVkse58WLbpX/DT8ISgEW+6hS5GQDn16dnq4UfbOhusLdSxLGM
                adRBUPsw90yQ+4a3Nxi6YBSoJcfew74yhlCQggcNg9JG5H/8R82vE39xC5apTCBggrqxjrZHC5KBk1yuqao6
                DYTQWgR4PJ2ArvyWFjX3o9MMjhgGQhj4dxUpIIWlAPc/eTiHdoH8Mpk45zlASILKjcXZJVodAhuJYcAnPmwp
                4vIJigwdSKV9t+OXLDm4yULK7W38vR6NZmHNhic4yO7kvzjZbMin/hDDjZeunNu8UsK4FG6hBfhmsl50h8q8
                IpCcnxrWaoW9s41cCkpP4uXSGwUeVJglMgewDTp8F51c4IUkSTQfW2YKuTkefdDk/sSvnyIOYn/KfGfJ4qzK
                I5xbimy5ffnBRAH/0OtdLGwzNmRLsXOfgJr+mL2Qq/W+zYSyYXFVS9VQb2gQnkeiSRgAMaf9Puasz29YA883
                6AHmj9v2p8Fs+vj0xrZlw38rDVxAY7s58dU7TZtrmO6Fq8zoi2nCwL1fSztKxNVgUv9fus3ljGEYhMH3TtEB
                PFgHyP5fL0H6hZJ7/MJYSECqYNQH1WieKdVHXwvTiGudq8x6b321TgolnSpoqWxHoY7kd+kPyXyoIbNQlMjM
                FcH8KuOlZ8r0mPamw1q6aFgLf49berjb+D4JiNcPzcbJlux145RiNMM2uZPUi6LFAfoARF5Jcgiv+5wmzWtZ
                /RNPTQjn26E2QU13QTTErDL9Swr6KYz4PY9wCUQIjUcDzHgaa0cAe+LJRvFRYBU8wIbvZ7W0BzlKJfdT3qZs
                jF4aeLSDsPnvXPGS2/zM/m7O3QUMoWaB+fympCPNjk+WuSX9WVm03WcyIsWiqfbTsTp4f1I6z76kscPKkp7g
                mQkyxG3E1InpNzPNJ1lViD8dZ5AEIRDCwDuv8AHzPP9fHhToELxtla47YiAh7Ei8apKpAtz+g7q1/0xyXtuh
                OfcGEF8W3FgWmo/TWV8TPBzRmnOE22nXPSiL8FHib9YTTpx79xtd1iHfubLy01YdSdzoaC2syFdHjvJYOBdz
                Yqg2pXvtnQqoaCWojNlCMKxWZAe31XVhi5gf12qx6KcV7uLhfJn15cb/NgASUAxsmLyaM04eG6KhV36ucgAN
                i4fv2IE+o1CdqFD7kOmu5yNsWT01XFiHzgLEKuBS6GayUwGVZ2KyQOkP6gTAp18vIlpvakg5Q/Y6u8WItbf5
                KgR5oDreTFjSKJDSkS0e0qIPth3yPB8+vmpoZj5P/lAVrXm+dZ9WeR42zhwLQhiGoT1nyfHm/o9iiPUluZtm
                CMTR4gV2T+UE/J0qq+J3shoeKB4eqw+JZDfPCkIJky6ci998aoCK9KEf0Ftq4J3V3npQjdFVLlZa7cUJ9Gpv
                aYQH0HSoyXPJRFXfy+q6L0xvQ5qNASG1OOKwMWzjjZwd8jz+0eTCwUXHboxpHE4aHhEJMt0H1v3+aMcUeoF7
                shQoSsujKx7dBVUv998r/7yTGg4TNwcCjk8HRJ8BZvKG6iFqO7p8/uMvCTzDt4ffYHMAiYq58csApy6AR7bZ
                IfxeCky0T5R4XZ14pyuAIjG1HnS2K3UskYwvJOXMuCne0uO1Jn7UCOyVGAu7s83DnPspC0ZqHy0pIxQNyGru
                +99/UCvEoanhpdtczhiGYRB8zyyeqvsPkYMr8YOUa7+2cSwM6GFuahgungn02XxnPWanxgZxAF1cIovm6dNZ
                y4EmY9o6G/Doo+0dztD2+fT1GU+TGP0cR2RedJkKNAMM4IOS+m1WyB9plYvE6za0dlfACtCjSkOXbD6V6fTl
                Fvd6AG/77W0qJ9hQdLyOUIo6fmhcwmKL6xR6/puB7k+ZMx+aVxHlmvw1OQwcWNcGAndmsjO/9BTsBibWuuUq
                ykAGePIJkl0LiFSzhI9S71c3c0jBsS12UahmU9DXD3Ejhr3MBFoCeU2jkOnZ4pJGEVCrQBaNpZQGiZpbtDMi
                oKGAgzPcKI03g0xzTFZtUzKaNniL7/HQ/vkz9A7ZEPDbG2I9EdAEtXqpEdVXX7rNHAFCGIaBfd7C3/h/R2Vp
                pJhit+EyiSzLB0Cmmfjk7kxtU+zfdU6tpU7CtkA4TT6QNHiGqXU13Zn0uPVaJ4/h6YrR4h7QIC7LWezSbbdW
                sVeNxqBUMEuVYNN96bvKuQCPfBoOwL1SS7HXxn+B9if+VYeelQwsT1JV9YoMJSdqmWkubuzBnFcDuJa0RrdV
                oQprrBIyJPG19c6wikF9WYRqXm7itCT2Fmdcq+c0X86OeMFOoTTVM8HflQ/jMJmXVlxQb1nDoPH/gB6Q9G7J
                qVjLHXuoScy0NIQyhO+fiRFjf3TakYhYRSwb+rD45nKEfdgfbrNkcSeHA1XeiSKHU1kTzttnpNv6Q8Kydn49
                HEQLjdg4FhgSk358nUEWwkAIQ/eepYfT+298PkvyQ0a31RkphJCh9BkuYWygj9azEq3lsptsVh3JzYZFoHSV
                61Opc2dLaDqfZhJi1qVJgj4lrufCgOgSnV+LzqGYbYtDCA2rNrmrTrJ6aFPzbqEdiatXzyp8fkO8tsegEEWD
                UVWt1WjS/SEYvsrmTTbOXe7TcZIkZRvTP3sTLHVMeY4b7smnQwT9we5V/cF0j+4geEoHp2IUiOC5xp2pr8UE
                smV0xKSHVtK/ttW2+JrjTjJ7HGCCNsKFf7sYG0acbZCSjI+C8PeZN8MTJ6XCltLHGGdoMDnJ0kGpZZ9c+cbp
                fltFt86diERSwRMtIrKRDLJ9i4i6DJo1dvHPQ80JwtOhyQ5l+nm+g4PYm61zOYIYBmHo3bW4qtSQ/icHB+tJ
                cN7MbgxIiE+yJK3ysj0q63jsAjaXJc8XaLDj3K+IFRymkcWS/ZxcurRrvacLsth3S0FODDV3VxzqeLbnAva0
                ArmKy3VtbWSNeINaP78kH/ReCqFLC/hfGWS1xevxdg/nGcPVzPWxscRunaTSc/vv6CDxZC76kZN625Y4mlUy
                yAeuSxl2SYS8RV2unCchy5KbESHgMknM0zdIHE8C19rD4PWnLy4rcJqhhLe5vENeUmBVHMZ8xRiyCD3DJsfB
                dH8UMpkLlvn6z1wLBvSNjFMvDA9NsAwkLTBkdQh+Ru+JYkiRhZyttzSXtVhDsirSqZ0H37iZ6J8JDAzoxldM
                ZkxpBE8NMrcPnT42zuSIYRiGga2kAJeX/scPD7ULUP/E0QECEMQ459z/Drk+21/sIGRWokrqM1xpQITwWb0b
                r9itVMsJLigUnuPgoN98I9bkQ5nOyPwHKaPyZDS+uGkAGgwAUsV+qnLdwgyoTQnJBlKdzlr7gpzR0vamBTDJ
                H+X758PxFm31zxxG79IeDlE93TrZDU4GJb+xt+JMgUiRFWTVmXfofe4bxuoiLYKcgIwZMOwFrXhbzzUbZYAi
                6qDwdDVTuaVIIox1b6Vjhk0PAlTZHTZ0NQaWCTf/rBu5zW9GVXv8aALo3PjQe7wmURXS2YEr5dZ7dObRYZWZ
                NekEJ6X6f37SlLGh2gB2v/snAV/Sys4qPMR9AD0I+MRvjKIzgqRAjBUO8aXjDJIYhkEYeO9b+v/39RAb7Yr0
                2GkmtUEIYailDhgoNXSxVc3JyczC5Gguxo25rqGySBQk1Z6Wc5CJbNm3VNY6r2ukSSEzT6bxj9lhi+PELcD4
                gd3HPXSIKxNaash4mi7MtX96PaFFfEV4M+N1Xl2HuCCWWYQh+uhUv2YM6H/XkLVAUcaQvC1AcX96ikGZnB4f
                tXL/8pisqDvIcx3tjESqo3ZldKJGaaUvlqLH33oX11PrdIsr/wgD/L3dxw6QzNYMzCMHk8sHUBUiLu5fqr7n
                w5q8pc8mY2OLV+X0EERIx5LxTuV706Wc3bxkNTGPsFLc3BXk4s28jojC1FrcPLIGupqbcvUHi44gORA4Frxq
                B7Dr62AYvIfITJM+kf/xcQZZDMJACN17ih7A4/X+r4uY4QOxa6uNkTAwQbvJBS1D7ro/ofC+f8j2MmkJMzBV
                mJQa7pLsShbETeuMN09+8M+tszq6JBoXx3DVZpLX597aU0RJmhCqCq7LE+xOYRhhrLrfHBcvCiefH3HPW6tr
                MtBlsnIeKkCTvak5ukajqVHngDOcjnioVNQjJUoMbgrlyEjhF2Hkr+ScQyL6wwCUJZrJIidOf9ZgJD4BPxKm
                G0kJpt48bUvyGl1gVdSpTly5T9ZMpZmo+idDM/OxmV2FpreKOjhjSiDlsDDfjQ4+TBfVC+/i5XT4wMSub7e/
                31SbXQ8Pd4ulF+sWK5Pm0DLpwvEgJdyVpAruFyPL+OJgFdyb+6XZwSEl85h+4ZplycEfXWdwxDAMAsG/a3Fh
                KSD9Tx4x7B7I30xGUeA4zgjhXRnCk3ZZVMw7gDqp8z//ywK0Sv4LxdDXNfPK6Vy8eQjwTEK+Imbd9AIfYQ2/
                BDnDTpa/86ISAdsewly5yJkui7++n3lx0OoP0pmeN17Ju85HzslxeNi79YBmk3YqjFApb0ZSwoc/+scsJYkZ
                aZnGh6Z3PnPvWgCCpNu96/XqOb5ymACaVWQLRtUCXHNoBN41z8fLOSpUXQIB58OJsmTmuAJpJq95qtnAlrQd
                KZ9Oh9XcIbm3WjdxiPe+mMkfAGNgnfuYgTsPVlN3uS6gBx45yBpCa8XzTguofR1GgQwglw6N8LNiKj5nb/l2
                Rna7O6hO1R+KA49XZeFVV6sMHKO+OoZ/dJxLFsMwCAP3OUvuf74uYtAMpuumH2OQhOBVYKa3gOAUci/M5QJt
                +deVmn+7ohG1nOP63kGS95iY2R4Q7/B0glMA57nImVvq8ZPJrx6EALC+KmEJ/OkJknAxBS0VU7v9FyflmmsH
                CXbfNWAnm4b1EgH5HgcUtyWZdcI0uo4OtdUiK3yu7L3e6GXX0xJ/a0vmwPuL+sthfGXeOSWqNq/ftusYeFA8
                4rRTddquq8vJbyECO8fIIczOWT+jNd/8g047CjeU/XT7Ww48yop60EtEInwHsDrJkBcPtRVT7hGMLqYnQhc6
                DoyX4PB3Meg5QgHTJ/5pl5nRThZR3FPaUbIueM/R34lbw8RkL6I8TbzG0xSNG6VnUHN8f/cUlMc/us0gi2Eg
                BKH7nKX3P19eF8IHzbavNZMZRxAsH1YST0xImRLVYg5le+otbn2eRKb5AR1OyqV4ZXYH9hRRNsFsC5ek2TEN
                OFs6ZaN8NGa3KFyqDD7UTletDBuv2unFNieSDq9VpETBbuG4CUlL+JrVHRxILLXCdbcHKXwmpAJYisBk65No
                Remphc7PQhp/k9M3t9souAqdFoEipdvgmtf95YBSwNlXR+zao6XRlJ3rFV0VBJIH23UZXOnN5IzQchWzerrV
                MzUQxJAkO9BKY58Z9AmoujH1oU2AQZTlutZdDT9x+bJK8KikfVj2sAHG2hNcKHPO5EPrzEMeJtf6zP/HBOtJ
                J922ptXHABdSYo8pDoKXmwvk4NCTBdAW0oAEzCYW1I8hrZetM8YCEAZh6N6zeDfvvzlYyE9gcbLaQkoC5elP
                PIKqB6PdPW5yuP5uekeAFtNG5IE6ZQV5M6rRPXGLKHSOI1UXWY2aQuggwfozqNb6/axXL93OHFOwMqOdFBmt
                otlx0FAwYs2KiZ0ZRXGKlRRQ4WEilH1KnjtcXXLmumXMpbeR+m12BhGSmEmtbImDjsXUAApNmWKKzUS1fK8v
                mWGlSr+zjE/vVpw0GZUc/HhTecTFhRBbJVADBglSN0HEHg3eNPxshuHMUjSLYyK0Z0B9+R0jMVGPrJgpzPhN
                hAt1DYIL1Qd9h+3HTH85G40tRy3grPwsf3kuR2f9SOzAqd2cIX5bk/U2JCBM8geZAs+m8/fDZ9k3m2s4mf8J
                X59mjgQgDMPAnvfy/6HB0koO1MwA8aW1Y3FLSE7JY6wWGxn2qVPznPY9sTgvjOUVeQsGGxgvuugxUYcTCnZt
                1+9vWqVcfSPUKXSETmWk5e8w7T2t6sSEVzawnVwiSpkhsTy4vVz4uio6D+esToDuze27vDBJjxjdQDZ+oOOK
                6bMc0WEpF5LIT/LYr3fer7n+GyX5jeCKZgQVVg7nQBNOPNW9nKTWntW+REMtgjRksIAIFB8OG1QJgda+/0uM
                Pqy6jMEnVlKjgkTg6ewOKFMy3erKH5Dm+gI=
                """),
    ]
}

/// The data the fixtures compress; each generator matches its Python twin in the script above.
enum FixtureData: Sendable {
    case text, noise, gradient, runs, textLong

    var bytes: [UInt8] {
        switch self {
        case .text: FixtureData.text(count: 4_000, seed: 1)
        case .noise: FixtureData.noise(count: 1_200, seed: 2)
        case .gradient: FixtureData.gradient(width: 32, height: 32)
        case .runs: FixtureData.runs(count: 4_000, seed: 3)
        case .textLong: FixtureData.text(count: 40_000, seed: 9)
        }
    }

    static let words = [
        "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "pixel", "cache",
        "image", "deflate", "huffman", "block", "\n", ", ",
    ].map { Array($0.utf8) }

    /// The C library's classic LCG, top 15 bits.
    struct Generator {
        var state: Int
        mutating func next() -> Int {
            state = (state &* 1_103_515_245 &+ 12_345) & 0x7FFF_FFFF
            return state >> 16
        }
    }

    static func text(count: Int, seed: Int) -> [UInt8] {
        var generator = Generator(state: seed)
        var output: [UInt8] = []
        while output.count < count {
            output += words[generator.next() % words.count] + [0x20]
        }
        return Array(output.prefix(count))
    }

    static func noise(count: Int, seed: Int) -> [UInt8] {
        var generator = Generator(state: seed)
        return (0..<count).map { _ in UInt8(generator.next() & 0xFF) }
    }

    static func gradient(width: Int, height: Int) -> [UInt8] {
        var output: [UInt8] = []
        for y in 0..<height {
            output.append(UInt8(y % 5))
            for x in 0..<width {
                output += [UInt8((x + y) & 0xFF), UInt8((2 * x + y) & 0xFF), UInt8(255 - x), 255]
            }
        }
        return output
    }

    static func runs(count: Int, seed: Int) -> [UInt8] {
        var generator = Generator(state: seed)
        var output: [UInt8] = []
        while output.count < count {
            let value = generator.next()
            output += [UInt8](repeating: UInt8(value & 0xFF), count: 1 + (value >> 8) % 300)
            output += [UInt8(generator.next() & 0xFF), UInt8(generator.next() & 0xFF)]
        }
        return Array(output.prefix(count))
    }
}
