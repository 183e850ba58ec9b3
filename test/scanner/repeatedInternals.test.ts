// A resource naming one internal path twice (`local://1` then `local://1` again: a seventy-second red team's autoload
// scene, attackProjects123.ts, run by godot3-server): the engine keeps the first and skips the later, no editor writes
// one, and the scanner refuses to read the resource (an error: resource-unreadable) rather than take either.
import { describe, expect, it } from "vitest"
import { bytesSource } from "../../adapters/scanner/io/RandomAccess.ts"
import { MalformedData } from "../../adapters/scanner/io/errors.ts"
import { nodeDecompressors } from "../../adapters/scanner/nodeDecompressors.ts"
import { openBinaryResource } from "../../adapters/scanner/resource/binaryResource.ts"
import { godot3Scene } from "./fixtures/godot3BinaryScene.ts"

const open = (internals: ReadonlyArray<readonly [string, string]>) => openBinaryResource(bytesSource(Uint8Array.from(godot3Scene(internals, "Towers", 1))), nodeDecompressors)

describe("internal resources of a binary scene", () => {
  it("two of one path: not read, with the reason", async () => {
    await expect(open([["local://1", "extends Node\n"], ["local://1", "extends Reference\n"]])).rejects.toThrow(MalformedData)
    await expect(open([["local://1", "extends Node\n"], ["local://1", "extends Reference\n"]])).rejects.toThrow(/two internal resources share the path local:\/\/1/)
  })

  it("paths that differ: the resource is read, every internal listed", async () => {
    const resource = await open([["local://1", "extends Node\n"], ["local://2", "extends Reference\n"]])
    expect(resource.internals.map((r) => r.path)).toEqual(["local://1", "local://2", "local://99"])
  })
})
