import { Effect, Layer } from "effect"
import { PackFiles, type UnifiedDiff } from "../../../ports/PackFiles.ts"

/** PackFiles loaded on the first review read, like the scanner: a server that nobody reviews on never holds it. */
export const layerLazyPackFiles: Layer.Layer<PackFiles> = Layer.sync(PackFiles, () => {
  let loaded: PackFiles["Service"] | undefined
  let loading: Promise<PackFiles["Service"]> | undefined
  const service = () =>
    loaded !== undefined
      ? Effect.succeed(loaded)
      : Effect.promise(() => (loading ??= import("./layer.ts").then((m) => (loaded = m.makePackFiles()))))
  return PackFiles.of({
    index: (source) => Effect.flatMap(service(), (s) => s.index(source)),
    read: (source, path) => Effect.flatMap(service(), (s) => s.read(source, path)),
    // Only ever called after a read of the same diff, which loaded the module.
    unifiedDiff: (path, before, after, maxBytes): UnifiedDiff => {
      if (loaded === undefined) throw new Error("PackFiles.unifiedDiff before the module was loaded")
      return loaded.unifiedDiff(path, before, after, maxBytes)
    },
  })
})
