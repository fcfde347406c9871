// A user of the cache stores and reads images as `Bitmap` values (and names their
// `PixelFormat`, `PNGLimits` and `PNGError`); those types come with `import ImageCacheKit`
// alone. Compiled as one module, everything is already in scope.
#if !IMAGECACHE_SINGLE_MODULE
    @_exported import PNG
#endif
