// The body guard (idle timeout and deadline) passes bytes through without keeping them: what the consumer read can be
// collected. A guard that raced every read against one long-lived deadline promise kept every chunk until the
// deadline (a 512 MiB presigned PUT held 512 MiB). Also: a stalled body errors with the idle timeout.
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { expect, test } from "vitest"
import { BodyTimedOut, guardBody } from "../../adapters/http/bodyTimeouts.ts"

setFlagsFromString("--expose-gc")
const collectGarbage = runInNewContext("gc") as () => void

const CHUNKS = 64
const CHUNK_BYTES = 256 * 1024

test("chunks the consumer has read are not kept by the guard", async () => {
  const handed: Array<WeakRef<Uint8Array>> = []
  let sent = 0
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === CHUNKS) return controller.close()
      const chunk = new Uint8Array(CHUNK_BYTES).fill(sent++)
      handed.push(new WeakRef(chunk))
      controller.enqueue(chunk)
    },
  }, { highWaterMark: 0 })
  const guarded = guardBody(source, { idleMs: 60_000, deadlineMs: 3600_000 })
  let bytes = 0
  for await (const chunk of guarded.stream) bytes += chunk.byteLength
  expect(bytes).toBe(CHUNKS * CHUNK_BYTES)
  for (let i = 0; i < 3; i++) {
    collectGarbage()
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  // The last chunk or two may still sit in a stream's internals; the rest must be gone.
  expect(handed.filter((ref) => ref.deref() !== undefined).length).toBeLessThanOrEqual(2)
})

test("a body that stops sending errors with the idle timeout, and says which timeout fired", async () => {
  const stalled = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new Uint8Array(4)) })
  const guarded = guardBody(stalled, { idleMs: 50, deadlineMs: 3600_000 })
  const reader = guarded.stream.getReader()
  expect((await reader.read()).value?.byteLength).toBe(4)
  await expect(reader.read()).rejects.toBeInstanceOf(BodyTimedOut)
  expect(guarded.timedOut()).toBe("idle")
})
