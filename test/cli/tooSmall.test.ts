// A pack under 1024 bytes is refused before anything is sent: "too small", exit 2, on both upload paths.
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { expect, test } from "vitest"
import { runCli } from "../support/cli.ts"

test("release and submit refuse a 1023-byte pack locally with too_small (exit 2); 1024 bytes passes that check", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pckgate-small-"))
  const small = join(dir, "small.pck")
  writeFileSync(small, new Uint8Array(1023))
  writeFileSync(join(dir, "manifest.json"), "{}")
  // Nothing listens here: a refusal that needed the service would be `network` (exit 3) instead.
  const env = { PCKGATE_URL: "http://127.0.0.1:9", PCKGATE_TOKEN: "unused" }
  for (const args of [["release", small, "--game", "gm_x", "--version", "1.0.0"], ["submit", small, "--manifest", join(dir, "manifest.json")]]) {
    const run = await runCli(args, env)
    expect([args[0], run.code]).toEqual([args[0], 2])
    expect(run.stderr).toMatch(/^error: too_small — .*too small/m)
  }
  const enough = join(dir, "enough.pck")
  writeFileSync(enough, new Uint8Array(1024))
  const sent = await runCli(["release", enough, "--game", "gm_x", "--version", "1.0.0", "--skip-check"], env)
  expect([sent.code, sent.stderr]).toEqual([3, expect.stringContaining("error: network")])
})
