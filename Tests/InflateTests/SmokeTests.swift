import Foundation
import Inflate
import Testing

@Suite struct SmokeTests {
    let text = Array(String(repeating: "hello hello hello hello world ", count: 20).utf8)

    @Test func fixedHuffmanStreamFromZlib() throws {
        let stream = [UInt8](Data(base64Encoded: "eNrLSM3JyVfIwCDL84tyUrCIj8qOyhIjCwC2WN3h")!)
        #expect(try Inflate.zlibDecompress(stream) == text)
        #expect(try Inflate.zlibDecompress(stream, expectedSize: text.count) == text)
        #expect(try Inflate.zlibDecompress(stream, expectedSize: 1) == text)
    }

    @Test func emptyStream() throws {
        let stream = [UInt8](Data(base64Encoded: "eJwDAAAAAAE=")!)
        #expect(try Inflate.zlibDecompress(stream) == [])
    }
}
