import { Effect, Layer } from "effect"
import { Unavailable } from "../../domain/errors.ts"
import { type ByteSource, PackScanner, type ScanExpectations } from "../../ports/PackScanner.ts"
import { describeError, SourceFailure } from "./io/errors.ts"
import { nodeDecompressors } from "./nodeDecompressors.ts"
import { defaultPolicy } from "./policy/defaultPolicy.ts"
import { type ScannerConfig, scanPack } from "./scanPack.ts"

/** A PackScanner with the given policy and decompressors (tests and operators replace the policy here). */
export const makePackScanner = (config: ScannerConfig): PackScanner["Service"] =>
  PackScanner.of({
    scan: (source: ByteSource, expectations: ScanExpectations) =>
      Effect.tryPromise({
        try: () => scanPack(source, expectations, config),
        catch: (error) =>
          error instanceof SourceFailure
            ? new Unavailable({ dependency: "storage", reason: `${error.message}: ${describeError(error.original)}` })
            : new Unavailable({ dependency: "scanner", reason: describeError(error) }),
      }),
  })

export const makeLayer = (config: ScannerConfig): Layer.Layer<PackScanner> => Layer.succeed(PackScanner, makePackScanner(config))

/** The default scanner: shipped policy, node:zlib decompressors (Node 24 and Deno). */
export const layer: Layer.Layer<PackScanner> = makeLayer({ policy: defaultPolicy, decompressors: nodeDecompressors })

/** The default scanner as a plain service (for the lazy layer, which loads this module on first use). */
export const defaultPackScanner: PackScanner["Service"] = makePackScanner({ policy: defaultPolicy, decompressors: nodeDecompressors })
