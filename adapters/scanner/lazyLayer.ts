import { Effect, Layer } from "effect"
import { PackScanner } from "../../ports/PackScanner.ts"

/**
 * The default scanner, loaded on its first scan: its modules (reader, decoders, policy) cost about 14 MB of memory a
 * server that has nothing to scan yet does not need to hold.
 */
export const layerLazyPackScanner: Layer.Layer<PackScanner> = Layer.sync(PackScanner, () => {
  let loading: Promise<PackScanner["Service"]> | undefined
  const scanner = () => Effect.promise(() => (loading ??= import("./layer.ts").then((m) => m.defaultPackScanner)))
  return PackScanner.of({ scan: (source, expectations) => Effect.flatMap(scanner(), (s) => s.scan(source, expectations)) })
})
