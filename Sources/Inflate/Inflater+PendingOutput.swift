/// The literal or match left over when the output buffer filled up (`Spec/deflate.md` §6.2).
extension Inflater {
    /// Writes the literal or match that did not fit last time; false if it still does not.
    func flushPending(
        output: UnsafeMutablePointer<UInt8>, capacity: Int, count: inout Int, canGrow: Bool,
        limit: Int
    ) throws(InflateError) -> Bool {
        if pendingLiteral >= 0 {
            if count == capacity {
                if !canGrow { throw .outputLimitExceeded(limit: limit) }
                return false
            }
            output[count] = UInt8(pendingLiteral)
            count += 1
            pendingLiteral = -1
        }
        if pendingLength > 0 {
            let chunk = min(pendingLength, capacity - count)
            Inflater.copyMatchBytewise(
                output: output + count, distance: pendingDistance, length: chunk)
            count += chunk
            pendingLength -= chunk
            if pendingLength > 0 {
                if !canGrow { throw .outputLimitExceeded(limit: limit) }
                return false
            }
        }
        return true
    }

    @inline(__always)
    static func copyMatchBytewise(output: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        let source = output - distance
        for index in 0..<length { output[index] = source[index] }
    }
}
