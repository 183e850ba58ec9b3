// Decides, from the configuration alone, whether the GCS store can work: a bucket, and credentials that can sign URLs.
// Nothing here touches the network: application default credentials without a key file would probe the cloud
// metadata server, which off Google Cloud does not answer and would stall every request.
import { createPrivateKey } from "node:crypto"
import { readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"

type Env = Readonly<Record<string, string | undefined>>

/** How signed URLs get their signature. */
export type GcsSigner =
  /** A service-account key file: signed locally, offline. */
  | { readonly kind: "keyFile"; readonly path: string; readonly clientEmail: string }
  /** No private key at hand: the library asks IAM's signBlob (keyless signing on Google Cloud). */
  | { readonly kind: "iamSignBlob"; readonly source: string }

export interface GcsSettings {
  readonly bucket: string
  /** Emulators and tests only: the JSON API and signed URLs use this origin instead of https://storage.googleapis.com. */
  readonly apiEndpoint: string | null
  readonly signer: GcsSigner
}

export type GcsSetup =
  | { readonly configured: true; readonly settings: GcsSettings }
  | { readonly configured: false; readonly reason: string }

// Google's bucket naming rules, simplified: lowercase letters, digits, '-', '_', '.'; 3-222 characters.
const BUCKET_PATTERN = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/

// The environment variables by which google-auth-library itself recognises serverless Google Cloud runtimes.
const SERVERLESS_ENV = ["K_SERVICE", "CLOUD_RUN_JOB", "CLOUD_RUN_WORKER_POOL", "FUNCTION_NAME", "FUNCTION_TARGET", "GAE_SERVICE"]

/** A Compute Engine (or GKE) host, recognised by its BIOS vendor, as google-auth-library does, without a network call. */
export const isComputeEngineHost = (): boolean => {
  try {
    return /Google/.test(readFileSync("/sys/class/dmi/id/bios_vendor", "utf8"))
  } catch {
    return false
  }
}

/** Where keyless credentials would come from, or null when this is not Google Cloud. */
const metadataServerSource = (env: Env, onComputeEngine: () => boolean): string | null => {
  if (env["GCE_METADATA_HOST"] || env["GCE_METADATA_IP"]) return `metadata server at ${env["GCE_METADATA_HOST"] || env["GCE_METADATA_IP"]}`
  const serverless = SERVERLESS_ENV.find((name) => env[name])
  if (serverless !== undefined) return `metadata server (${serverless} is set)`
  if (env["METADATA_SERVER_DETECTION"]?.trim().toLowerCase() === "assume-present") return "metadata server (METADATA_SERVER_DETECTION=assume-present)"
  return onComputeEngine() ? "metadata server (Compute Engine host)" : null
}

const signerFromKeyFile = async (path: string): Promise<GcsSigner | string> => {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (error) {
    return `GOOGLE_APPLICATION_CREDENTIALS points at ${path}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`
  }
  let key: { type?: unknown; client_email?: unknown; private_key?: unknown }
  try {
    key = JSON.parse(text)
  } catch {
    return `GOOGLE_APPLICATION_CREDENTIALS points at ${path}, which is not a JSON key file`
  }
  if (key.type === "service_account") {
    if (typeof key.client_email !== "string" || typeof key.private_key !== "string") {
      return `the service-account key file ${path} lacks client_email or private_key`
    }
    try {
      createPrivateKey(key.private_key)
    } catch {
      return `the private_key in ${path} is not a usable PEM key`
    }
    return { kind: "keyFile", path, clientEmail: key.client_email }
  }
  // These credential types sign through IAM with the identity they stand for.
  if (key.type === "impersonated_service_account" || key.type === "external_account") {
    return { kind: "iamSignBlob", source: `${key.type} credentials in ${path}` }
  }
  return `the key file ${path} holds '${String(key.type)}' credentials, which cannot sign URLs; use a service-account key file, or run on Google Cloud as a service account`
}

/**
 * Reads the GCS configuration. `env` must be the environment @google-cloud/storage reads too (the process's): the
 * library finds GOOGLE_APPLICATION_CREDENTIALS there itself.
 */
export const resolveGcsSetup = async (input: {
  readonly bucket: string | null
  readonly apiEndpoint: string | null
  readonly env: Env
  readonly onComputeEngine?: () => boolean
}): Promise<GcsSetup> => {
  if (input.bucket === null || input.bucket === "") return { configured: false, reason: "GCS_BUCKET is not set" }
  if (!BUCKET_PATTERN.test(input.bucket)) return { configured: false, reason: `GCS_BUCKET '${input.bucket}' is not a valid bucket name` }
  if (input.apiEndpoint !== null && !/^https?:\/\/[^/?#]+$/.test(input.apiEndpoint)) {
    return { configured: false, reason: `GCS_API_ENDPOINT must be an origin such as http://127.0.0.1:4443 (got '${input.apiEndpoint}')` }
  }
  const keyFile = input.env["GOOGLE_APPLICATION_CREDENTIALS"]
  let signer: GcsSigner | string
  if (keyFile !== undefined && keyFile !== "") {
    signer = await signerFromKeyFile(keyFile)
  } else {
    const source = metadataServerSource(input.env, input.onComputeEngine ?? isComputeEngineHost)
    signer = source === null
      ? "no Google credentials: set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file, or run on Google Cloud as a service account"
      : { kind: "iamSignBlob", source }
  }
  if (typeof signer === "string") return { configured: false, reason: signer }
  return { configured: true, settings: { bucket: input.bucket, apiEndpoint: input.apiEndpoint, signer } }
}

export const describeGcsSetup = (setup: GcsSetup): string =>
  setup.configured
    ? `objects: Google Cloud Storage bucket gs://${setup.settings.bucket}${
      setup.settings.apiEndpoint === null ? "" : ` at ${setup.settings.apiEndpoint} (endpoint override: emulators and tests only)`
    }, URLs signed ${
      setup.settings.signer.kind === "keyFile"
        ? `with the key of ${setup.settings.signer.clientEmail}`
        : `through IAM signBlob (${setup.settings.signer.source})`
    }`
    : `objects: Google Cloud Storage is NOT configured (${setup.reason}); upload-url and finalize answer 503 storage_not_configured`
