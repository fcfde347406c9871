/// Four consecutive Paeth rows at once, in byte lanes (`Spec/png.md` §6.3).
extension PNGFilter {
    /// Unfilters four consecutive Paeth rows of 3- or 4-byte pixels as a wavefront in one
    /// 16-byte vector: each step does pixel p of the first row, p − 2 of the second, p − 4 of
    /// the third and p − 6 of the fourth, four byte lanes each. A row's upper neighbours are
    /// the row above's pixels p − 2 and p − 3, finished two and three steps before, so they
    /// reach their lanes by one shift of an old result, off the chain from one step to the next.
    ///
    /// ``paethTwoRows`` computes in 16-bit lanes, 8 of them, and its steps are bound by the
    /// vector units, not by the chain. ``paethStepInBytes`` needs no wider lane, so a step does
    /// twice the pixels in about 80 instructions where two of ``paethTwoRows``'s took 124:
    /// astronaut.png (336 of its 512 rows are runs of four Paeth rows) decoded in 11% fewer
    /// instructions, and 0.82 ms rather than 0.87 (best of 300, alternated).
    ///
    /// Pixels left of a row's start are treated as zeros (a = b = c = 0 and a filtered zero
    /// decode to zero), so the first steps, where the lower rows have not started, are the same
    /// computation with their loads and stores skipped.
    ///
    /// - Parameters:
    ///   - source: the first row's filtered bytes; each further row's are `sourceStride` after.
    ///   - destination: where the first row goes; each further row `destinationStride` after.
    ///     The rows may be unfiltered in place (`source` = `destination`).
    ///   - above: the unfiltered row above the first row.
    ///   - count: bytes in each row, at least `8 × pixelBytes + 4`.
    @inline(always)
    static func paethFourRows(
        source: UnsafePointer<UInt8>, sourceStride: Int,
        destination: UnsafeMutablePointer<UInt8>, destinationStride: Int,
        above: UnsafePointer<UInt8>, count: Int, pixelBytes: Int
    ) {
        let rows = FourRows(
            input: UnsafeRawPointer(source), inputStride: sourceStride,
            output: UnsafeMutableRawPointer(destination), outputStride: destinationStride,
            above: UnsafeRawPointer(above), lag: 2 &* pixelBytes)
        var wave = FourRowWave(x: rows.inputs(at: 0, starting: true))
        // Until the fourth row starts, with the rows not yet started skipped; then all four.
        while wave.offset < 3 &* rows.lag { rows.step(&wave, pixelBytes: pixelBytes, starting: true) }
        while wave.offset &+ 4 &+ pixelBytes <= count {
            rows.step(&wave, pixelBytes: pixelBytes, starting: false)
        }
        let (offset, x) = (wave.offset, wave.x)
        // Each row's next pixel has its input in x; put it back, and finish each row in scalar
        // code, from the first row down (each is the next one's row above).
        rows.store(x, at: offset, starting: false)
        var rowAbove = above
        for row in 0..<4 {
            let rowDestination = destination + row * destinationStride
            paethTail(
                source + row * sourceStride, rowDestination, rowAbove, from: offset - row * rows.lag, count,
                pixelBytes)
            rowAbove = UnsafePointer(rowDestination)
        }
    }

    /// The Paeth predictor of sixteen independent bytes.
    ///
    /// With pa = |b − c| and pb = |a − c|, the third distance |a + b − 2c| is pa + pb when
    /// a − c and b − c have the same sign and |pa − pb| when they differ. pa + pb can pass 255,
    /// but then it is at least pa and pb, and the predictor only compares pa and pb with it,
    /// so 255 stands in for it and every quantity fits a byte. Each distance is a maximum
    /// minus a minimum, and a ≥ c is max(a, c) = a. Checked against ``paethPredictor`` on
    /// every (a, b, c).
    @inline(always)
    static func paethStepInBytes(
        _ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>, _ c: SIMD16<UInt8>
    ) -> SIMD16<UInt8> {
        // Independent of a: off the chain from one step to the next.
        let maxBC = maximum(b, c)
        let pa = maxBC &- minimum(b, c)
        let bAtLeastC = equal(maxBC, b)
        // After a.
        let maxAC = maximum(a, c)
        let pb = maxAC &- minimum(a, c)
        let sameSide = equal(equal(maxAC, a), bAtLeastC)
        let pc = (maximum(pa, pb) &- minimum(pa, pb)) | sameSide
        let nearer = minimum(pb, pc)
        let bOrC = c ^ ((b ^ c) & equal(nearer, pb))
        return bOrC ^ ((a ^ bOrC) & equal(minimum(pa, nearer), pa))
    }

    /// The lane-wise maximum and minimum of sixteen bytes, one instruction each once the loop
    /// is vectorized: the standard library's `pointwiseMax` and `pointwiseMin` on 16 lanes
    /// were left as calls, and selects on comparisons compiled to five instructions each.
    @inline(always)
    static func maximum(_ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>) -> SIMD16<UInt8> {
        var result = x
        for lane in 0..<16 { result[lane] = Swift.max(x[lane], y[lane]) }
        return result
    }

    @inline(always)
    static func minimum(_ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>) -> SIMD16<UInt8> {
        var result = x
        for lane in 0..<16 { result[lane] = Swift.min(x[lane], y[lane]) }
        return result
    }

    /// 255 in the lanes where `x` and `y` are equal, 0 elsewhere.
    @inline(always)
    static func equal(_ x: SIMD16<UInt8>, _ y: SIMD16<UInt8>) -> SIMD16<UInt8> {
        SIMD16<UInt8>().replacing(with: 255, where: x .== y)
    }
}

/// Where ``PNGFilter/paethFourRows`` reads and writes: four rows in the lane groups of one
/// vector, row k at the first row's byte offset less k lags.
struct FourRows {
    let input: UnsafeRawPointer
    let inputStride: Int
    let output: UnsafeMutableRawPointer
    let outputStride: Int
    /// The row above the first row.
    let above: UnsafeRawPointer
    /// Bytes each row is behind the one above it.
    let lag: Int

    /// One step of the wavefront: each row's next pixel.
    @inline(always)
    func step(_ wave: inout FourRowWave, pixelBytes: Int, starting: Bool) {
        let b = above(at: wave.offset, twoBack: wave.twoBack)
        // The next inputs are loaded before this step's 4-byte stores, which overwrite the
        // first byte of each row's next 3-byte pixel.
        let next = inputs(at: wave.offset &+ pixelBytes, starting: starting)
        let value = wave.x &+ PNGFilter.paethStepInBytes(wave.a, b, wave.c)
        store(value, at: wave.offset, starting: starting)
        (wave.twoBack, wave.a, wave.c, wave.x) = (wave.a, value, b, next)
        wave.offset &+= pixelBytes
    }

    /// The four rows' filtered 4 bytes at `offset` (the first row's), zero for a row that has
    /// not started when `starting`.
    @inline(always)
    func inputs(at offset: Int, starting: Bool) -> SIMD16<UInt8> {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for row in 0..<4 {
            let column = offset &- row &* lag
            if starting && column < 0 { continue }
            let word = UInt64(
                UInt32(
                    littleEndian: input.loadUnaligned(
                        fromByteOffset: row &* inputStride &+ column, as: UInt32.self)))
            let value = word &<< (32 &* UInt64(row & 1))
            if row < 2 { low |= value } else { high |= value }
        }
        return unsafeBitCast(SIMD2<UInt64>(low, high), to: SIMD16<UInt8>.self)
    }

    /// Each row's upper neighbours: the first row's from `above`, each lower row's from the
    /// row above it two steps ago, one lane group up.
    @inline(always)
    func above(at offset: Int, twoBack: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let older = unsafeBitCast(twoBack, to: SIMD2<UInt64>.self)
        let first = UInt64(UInt32(littleEndian: above.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        return unsafeBitCast(
            SIMD2<UInt64>(older[0] &<< 32 | first, older[1] &<< 32 | older[0] &>> 32), to: SIMD16<UInt8>.self)
    }

    /// Stores each row's 4 bytes at `offset` (the first row's), skipping a row that has not
    /// started when `starting`.
    @inline(always)
    func store(_ value: SIMD16<UInt8>, at offset: Int, starting: Bool) {
        let halves = unsafeBitCast(value, to: SIMD2<UInt64>.self)
        for row in 0..<4 {
            let column = offset &- row &* lag
            if starting && column < 0 { continue }
            let half = row < 2 ? halves[0] : halves[1]
            output.storeBytes(
                of: UInt32(truncatingIfNeeded: half &>> (32 &* UInt64(row & 1))).littleEndian,
                toByteOffset: row &* outputStride &+ column, as: UInt32.self)
        }
    }
}

/// What ``PNGFilter/paethFourRows`` carries from one step to the next.
struct FourRowWave {
    /// This step's filtered inputs.
    var x: SIMD16<UInt8>
    /// The last step's results (each row's left neighbours now), the results before them, and
    /// the last step's upper neighbours (each row's upper-left neighbours now).
    var a = SIMD16<UInt8>()
    var twoBack = SIMD16<UInt8>()
    var c = SIMD16<UInt8>()
    /// The first row's byte offset.
    var offset = 0
}
