// The PNG module: a canonical stored-block encoder and a complete decoder (Spec/png.md).
// Implementation lands with issue 2.
