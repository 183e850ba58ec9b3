import { readFileSync } from "node:fs"

// The pages' scripts and stylesheet, served by the app itself (no build step, no inline script or style, so the
// Content-Security-Policy can say `script-src 'self'`). Loaded once; the URL carries a content hash for caching.

const FILES = {
  "pages.css": "text/css; charset=utf-8",
  "submit.js": "text/javascript; charset=utf-8",
  "creator.js": "text/javascript; charset=utf-8",
  "review.js": "text/javascript; charset=utf-8",
  "lifecycle.js": "text/javascript; charset=utf-8",
} as const

export type AssetName = keyof typeof FILES

interface Asset {
  readonly body: Uint8Array<ArrayBuffer>
  readonly contentType: string
  readonly hash: string
}

/** FNV-1a: enough to tell two versions of a file apart in a cache-busting query string. */
const fnv1a = (bytes: Uint8Array): string => {
  let hash = 0x811c9dc5
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0
  return hash.toString(16).padStart(8, "0")
}

const ASSETS: ReadonlyMap<string, Asset> = new Map(
  Object.entries(FILES).map(([name, contentType]) => {
    const body = new Uint8Array(readFileSync(new URL(`./assets/${name}`, import.meta.url)))
    return [name, { body, contentType, hash: fnv1a(body) }] as const
  }),
)

/** The URL pages link to: changes whenever the file does, so it can be cached for good. */
export const assetUrl = (name: AssetName): string => `/assets/${name}?v=${ASSETS.get(name)!.hash}`

export const findAsset = (name: string): Asset | undefined => ASSETS.get(name)
