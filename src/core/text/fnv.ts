// FNV-1a, 32-bit: the one spelling of its constants for the hashes built on it (near-duplicate shingles, JSON
// fingerprints, element-cache buckets). Each hash step is `Math.imul(hash ^ byte, FNV_PRIME)`, written inline in
// the hot loops that use it.

/** The offset basis, as an int32 (`| 0`): a hash variable that starts as one stays in integer arithmetic. */
export const FNV_OFFSET_BASIS = 0x811c9dc5 | 0;
export const FNV_PRIME = 0x01000193;
