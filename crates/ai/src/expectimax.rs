//! (owned by a helper; being written)
