// The Inflate module: a complete decoder for DEFLATE (RFC 1951) inside zlib (RFC 1950).
// Implementation lands with issue 2.
