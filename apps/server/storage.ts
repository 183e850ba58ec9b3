import { loadOptional } from "../../adapters/system/optionalPackage.ts"
import { join } from "node:path"
import { Layer } from "effect"
import { SignedUrls } from "../../adapters/signed-urls/SignedUrls.ts"
import { makeUrlSigner, type UrlSigner } from "../../adapters/signed-urls/UrlSigner.ts"
import { layerLocalDiskStorage } from "../../adapters/storage-local/LocalDiskStorage.ts"
import { loadSecret } from "../../adapters/system/secretFiles.ts"
import type { Clock } from "../../ports/Clock.ts"
import type { ObjectStorage } from "../../ports/ObjectStorage.ts"
import type { ServerConfig } from "./config.ts"

export interface Storage {
  readonly layer: Layer.Layer<ObjectStorage, unknown, Clock>
  /** Present when this app serves the presigned URLs itself (the local-disk store). */
  readonly signer?: UrlSigner
  readonly describe: string
}

/**
 * Where artifacts live, chosen from the configuration. With `gcs`, a missing bucket or unusable credentials do not stop
 * the server: storage endpoints answer 503 storage_not_configured. `env` is where Google's application default
 * credentials are read, by the library as well (the process environment).
 */
export const selectStorage = async (
  config: ServerConfig,
  baseUrl: () => string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<Storage> => {
  if (config.storage === "gcs") {
    // Loaded only when configured: the GCS client library is large, and the embedded default never needs it.
    const { describeGcsSetup, layerGcsStorage, resolveGcsSetup } = await loadOptional(
      "@google-cloud/storage",
      "STORAGE=gcs",
      () => import("../../adapters/storage-gcs/index.ts"),
    )
    const setup = await resolveGcsSetup({ bucket: config.gcsBucket, apiEndpoint: config.gcsApiEndpoint, env })
    return { layer: layerGcsStorage(setup), describe: describeGcsSetup(setup) }
  }
  const secret = await loadSecret(config.urlSigningSecret, "URL_SIGNING_SECRET", join(config.dataDir, "keys", "url-signing.key"))
  const signer = await makeUrlSigner(secret, baseUrl)
  const root = join(config.dataDir, "storage")
  return {
    layer: layerLocalDiskStorage(root, { directWrites: config.storageDirectWrites }).pipe(Layer.provide(Layer.succeed(SignedUrls, signer))),
    signer,
    describe: `objects: local disk under ${root}${config.storageDirectWrites ? "" : " (direct writes off)"}`,
  }
}
