//! Pure rules as tables of cases; each row's derivation is beside it.
