// The Google Cloud Storage object store: settings decided offline, then either the bucket-backed store or one that
// answers StorageNotConfigured.
import type { Layer } from "effect"
import type { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { DEFAULT_GCS_TIMEOUTS, type GcsTimeouts, layerGcsObjectStorage } from "./GcsObjectStorage.ts"
import type { GcsSetup } from "./GcsSettings.ts"
import { layerUnconfiguredStorage } from "./UnconfiguredStorage.ts"

export { describeGcsSetup, type GcsSettings, type GcsSetup, resolveGcsSetup } from "./GcsSettings.ts"
export { DEFAULT_GCS_TIMEOUTS, type GcsTimeouts, layerGcsObjectStorage } from "./GcsObjectStorage.ts"
export { GCS_PUT_HEADERS } from "./gcsSignedUrls.ts"

export const layerGcsStorage = (setup: GcsSetup, timeouts: GcsTimeouts = DEFAULT_GCS_TIMEOUTS): Layer.Layer<ObjectStorage> =>
  setup.configured ? layerGcsObjectStorage(setup.settings, timeouts) : layerUnconfiguredStorage(setup.reason)
