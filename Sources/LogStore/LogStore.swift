// The LogStore module: an append-only single-file store (Spec/store.md).
// Implementation lands with issue 3.
