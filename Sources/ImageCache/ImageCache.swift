// The ImageCache module: one cache API over four backends (Spec/cache.md, Spec/backends.md).
// Implementation lands with issue 4.
