import ImageCacheKit
import Testing

/// This file imports only the cache: `Bitmap`, `PixelFormat` and `PNGError` come with it.
@Suite struct BitmapThroughTheCacheImport {
    @Test func aCacheUserNeedsNoSecondImport() throws {
        let bitmap = try Bitmap(width: 1, height: 1, format: PixelFormat.gray8, pixels: [42])
        #expect(bitmap.pixels == [42])
        #expect(throws: PNGError.self) { try Bitmap(width: 0, height: 1, format: .gray8, pixels: []) }
    }
}
