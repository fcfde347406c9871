// Vendoring smoke test: the whole cache compiled as ONE module with IMAGECACHE_SINGLE_MODULE.
import Foundation
import Vendored

let folder = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
for backend in Backend.allCases {
    let directory = folder.appendingPathComponent(backend.rawValue, isDirectory: true)
    let image = try Bitmap(width: 3, height: 2, format: .rgb8, pixels: Array(0..<18))
    do {
        let cache = try ImageCache(
            configuration: CacheConfiguration(directory: directory, backend: backend, timeToLive: .seconds(60)))
        try cache.store(image, forKey: "image")
        try cache.store(Data("hello".utf8), forKey: URL(string: "https://example.com/hello")!)
        try cache.close()
    }
    let reopened = try ImageCache(configuration: CacheConfiguration(directory: directory, backend: backend))
    guard try reopened.bitmap(forKey: "image") == image,
        try reopened.data(forKey: "https://example.com/hello") == Data("hello".utf8)
    else { fatalError("\(backend): the cache did not give back what it stored") }
    print("cache smoke (\(backend)): \(reopened.count) entries survived reopening")
}
