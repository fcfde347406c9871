// Our own conformance driver (Spec/conformance.md). Implementation lands with issue 5.
