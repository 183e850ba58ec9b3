import { Effect, Layer } from "effect"
import { Ids } from "../../ports/Ids.ts"

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz" // Crockford base32, lowercase

/** `<prefix>_` + 10 characters of milliseconds + 16 random: unique, URL-safe, and sorted by creation time. */
export const randomId = (prefix: string, nowMs: number = Date.now()): string => {
  let time = ""
  for (let t = nowMs, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time
  const random = crypto.getRandomValues(new Uint8Array(16))
  return `${prefix}_${time}${Array.from(random, (b) => ALPHABET[b % 32]).join("")}`
}

export const layerRandomIds = Layer.succeed(Ids, Ids.of({ next: (prefix) => Effect.sync(() => randomId(prefix)) }))
