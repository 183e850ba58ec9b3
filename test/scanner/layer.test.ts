// The PackScanner port and its layer: findings are successes, only a failing byte source is an error.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { layer } from "../../adapters/scanner/layer.ts"
import { type ByteSource, PackScanner } from "../../ports/PackScanner.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"

const scan = (source: ByteSource) => Effect.runPromise(Effect.result(PackScanner.use((s) => s.scan(source, { path: "multipart" })).pipe(Effect.provide(layer))))
const memory = (bytes: Uint8Array): ByteSource => ({ size: bytes.length, read: async (o, l) => bytes.slice(o, o + l) })

describe("PackScanner layer", () => {
  it("a hostile pack is a successful scan with findings", async () => {
    const result = await scan(memory(writePack({ format: 2, entries: [{ path: "../x", data: utf8("x"), rawPathBytes: utf8("../x") }], fileCount: 5 })))
    expect(result._tag).toBe("Success")
    if (result._tag === "Success") expect(result.success.ok).toBe(false)
  })

  it("a failing byte source is Unavailable(storage)", async () => {
    // Larger than the first read, so the scan must come back to the source.
    const pack = writePack({ format: 2, entries: [{ path: "manifest.json", data: utf8("{}") }, { path: "a.gd", data: utf8(`extends Node\n${"#".repeat(20_000)}\n`) }] })
    let reads = 0
    const flaky: ByteSource = {
      size: pack.length,
      read: async (o, l) => {
        reads += 1
        if (reads > 1) throw new Error("GCS 503")
        return pack.slice(o, o + l)
      },
    }
    const result = await scan(flaky)
    expect(result._tag).toBe("Failure")
    if (result._tag === "Failure") {
      expect(result.failure._tag).toBe("Unavailable")
      expect(result.failure.dependency).toBe("storage")
      expect(result.failure.reason).toContain("GCS 503")
    }
  })

  it("a byte source that fails with an error without a message still gives a reason", async () => {
    const silent: ByteSource = { size: 4096, read: async () => Promise.reject(Object.assign(new Error(""), { _tag: "ObjectNotFound" })) }
    const result = await scan(silent)
    expect(result._tag).toBe("Failure")
    if (result._tag === "Failure") expect(result.failure.reason).toBe("reading 4096 bytes at offset 0 failed: ObjectNotFound")
  })

  it("a byte source that returns fewer bytes than the file has is a finding, not a failure", async () => {
    const pack = writePack({ format: 3, entries: [{ path: "manifest.json", data: utf8("{}") }] })
    const short: ByteSource = { size: pack.length, read: async (o, l) => pack.slice(o, o + Math.min(l, 8)) }
    const result = await scan(short)
    expect(result._tag).toBe("Success")
  })
})
