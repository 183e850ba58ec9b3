// The platform SDK's calls into the entry script are out of the pack's sight. The policy's platform class lists the
// functions the SDK calls (`hooks`, `_*` in the default policy): a helper of a class extending EngineGame that no hook
// names takes only what the pack's own calls pass (a thirty-fourth hunt's replay saver); a hook, or any function where
// the policy lists no hooks, also takes whatever the SDK passes.
import { describe, expect, it } from "vitest"
import { defaultPolicy } from "../../adapters/scanner/policy/defaultPolicy.ts"
import type { Policy } from "../../adapters/scanner/policy/Policy.ts"
import { utf8 } from "./support/bytes.ts"
import { writePack } from "./support/packWriter.ts"
import { scanBytes } from "./support/scan.ts"

const MANIFEST = utf8(JSON.stringify({ id: "g", name: "G", version: "1.0.0", engine_sdk: "1.0", entry_scene: "res://game/main.tscn", min_players: 1, max_players: 4 }))
const SCENE = utf8('[gd_scene load_steps=2 format=2]\n\n[ext_resource path="res://game/main.gd" type="Script" id=1]\n\n[node name="Main" type="Node2D"]\nscript = ExtResource( 1 )\n')

/** Errors of main.gd, which extends EngineGame and saves a replay under `user://ghosts/replay_<tag>.txt` through `helper`. */
const errors = async (helper: string, policy: Policy = defaultPolicy): Promise<ReadonlyArray<string>> => {
  const text = [
    "extends EngineGame",
    "",
    "func _ready():",
    `\t${helper}("level3")`,
    "",
    `func ${helper}(tag: String):`,
    "\tvar f = File.new()",
    '\tf.open("user://ghosts/replay_" + tag + ".txt", File.WRITE)',
    "\tf.close()",
    "",
  ].join("\n")
  const report = await scanBytes(writePack({ format: 1, entries: [{ path: "res://manifest.json", data: MANIFEST }, { path: "res://game/main.tscn", data: SCENE }, { path: "res://game/main.gd", data: utf8(text) }] }), undefined, policy)
  return report.findings.filter((f) => f.severity === "error").map((f) => `${f.file}:${f.line} ${f.rule} ${f.message.match(/\(policy ([a-z-]+)\)/)?.[1] ?? ""}`)
}

const withHooks = (hooks: ReadonlyArray<string> | undefined): Policy => ({
  ...defaultPolicy,
  platformClasses: (defaultPolicy.platformClasses ?? []).map(({ name, path }) => (hooks === undefined ? { name, path } : { name, path, hooks })),
})

describe("the SDK's hooks", () => {
  it("a helper no hook names takes what the pack's calls pass: a constant tag is no climbing write", async () => {
    expect(await errors("save_replay_text")).toEqual([])
  })

  it.each([
    ["a hook of the default policy (`_*`)", "_save_replay_text", defaultPolicy],
    ["a name the policy lists", "save_replay_text", withHooks(["on_*", "save_replay_text"])],
    ["any function where the policy lists no hooks", "save_replay_text", withHooks(undefined)],
  ])("%s also takes what the SDK passes: the climbing-write error", async (_what, helper, policy) => {
    expect(await errors(helper, policy)).toEqual(["res://game/main.gd:8 banned-api filesystem-outside-sandbox"])
  })
})
