/**
 * Block decompressors the reader needs, injected so the reader itself stays free of runtime
 * imports. Each call inflates one independent stream and must throw rather than produce more than
 * `maxOutput` bytes, which is how a decompression bomb stays bounded.
 */
export interface Decompressors {
  /** Zstandard frame(s): RSCC mode 2 (the default everywhere) and Godot 4.3+ compressed `.gdc`. */
  readonly zstd: (input: Uint8Array, maxOutput: number) => Uint8Array
  /** zlib-wrapped deflate (RFC 1950): RSCC mode 1. */
  readonly deflate: (input: Uint8Array, maxOutput: number) => Uint8Array
  /** gzip: RSCC mode 3. */
  readonly gzip: (input: Uint8Array, maxOutput: number) => Uint8Array
}
