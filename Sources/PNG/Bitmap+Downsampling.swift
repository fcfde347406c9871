extension Bitmap {
    /// This bitmap reduced so that neither side exceeds `maximumPixelSize`, by exact area
    /// averaging (`Spec/thumbnail.md`); the bitmap itself when it already fits.
    ///
    /// See ``Downsampler/downsample(_:toFit:)`` for the size rule, the arithmetic and the errors.
    ///
    /// - Throws: ``PNGError/invalidMaximumPixelSize(_:)`` when `maximumPixelSize < 1`,
    ///   ``PNGError/imageTooLarge(width:height:)`` above 2^32 pixels, or the errors of
    ///   ``init(width:height:format:pixels:)`` when the fields no longer fit together.
    public func downsampled(toFit maximumPixelSize: Int) throws(PNGError) -> Bitmap {
        try Downsampler.downsample(self, toFit: maximumPixelSize)
    }
}
