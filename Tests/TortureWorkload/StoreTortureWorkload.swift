/// The values of the log store's crash tests (`Tests/CrashTests/StoreCrashTests.swift`), shared
/// by the child that writes them and the test that reads them back after killing it.
public enum StoreTortureWorkload {
    /// The value stored under `k<number>`: 64 to 2,111 bytes that only `number` determines.
    public static func value(for number: Int) -> [UInt8] {
        var state = UInt64(number) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        let length = 64 + Int(state % 2048)
        return (0..<length).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }
}
