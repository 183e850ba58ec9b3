import { Effect, Layer } from "effect"
import { PackFiles } from "../../../ports/PackFiles.ts"
import { unifiedDiff } from "./unifiedDiff.ts"

/** The pack readers loaded on the first review read, like the scanner: a server nobody reviews on never holds them. */
export const layerLazyPackFiles: Layer.Layer<PackFiles> = Layer.sync(PackFiles, () => {
  let loading: Promise<PackFiles["Service"]> | undefined
  const service = () => Effect.promise(() => (loading ??= import("./layer.ts").then((m) => m.makePackFiles())))
  return PackFiles.of({
    index: (source) => Effect.flatMap(service(), (s) => s.index(source)),
    read: (source, path) => Effect.flatMap(service(), (s) => s.read(source, path)),
    unifiedDiff,
  })
})
