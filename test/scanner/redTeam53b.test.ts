// A fifty-third red team's bypasses the engine here cannot run: (1) an `.import` whose mobile-format target, left
// unjudged when an s3tc target before it is in the pack, names a `.tres` the pack lacks (a machine without s3tc, or a
// pack setting `_custom_features`, takes it, and reads it from the disk: proved in godot3-server by the red team);
// (2) a Godot 4 global shader parameter of a sampler type, whose "value" the engine loads at start
// (servers/rendering/renderer_rd/storage_rd/material_storage.cpp global_shader_parameters_load_settings).
import { describe, expect, it } from "vitest"
import { projectSettingsFindings } from "../../adapters/scanner/checks/projectSettingsCheck.ts"
import { redirectFindings } from "../../adapters/scanner/checks/redirectCheck.ts"
import { lines } from "./fixtures/godotProjects.ts"

const S3TC = "res://.import/wind.png-a42b.s3tc.stex"

const imported = (etc2: string): ReadonlyArray<string> =>
  redirectFindings(
    "res://game/wind.png.import",
    lines("[remap]", "", 'importer="texture"', 'type="StreamTexture"', `path.s3tc="${S3TC}"`, `path.etc2="${etc2}"`, "", "[deps]", "", 'source_file="res://game/wind.png"'),
    (path) => path === S3TC,
    3,
  ).map((f) => `${f.rule} ${f.pattern}`)

describe("an .import target of a mobile texture format after an s3tc one in the pack", () => {
  it("is dropped from desktop exports and left unjudged when it is a compressed texture", () => {
    expect(imported("res://.import/wind.png-a42b.etc2.stex")).toEqual([])
  })

  it("is read from the disk when it is anything else the pack lacks: the error", () => {
    expect(imported("res://.import/wind.png-a42b.etc2.tres")).toEqual(["pack-hostile-path .import target"])
  })
})

const shaderGlobal = (value: string, type = "sampler2D"): ReadonlyArray<string> =>
  projectSettingsFindings(lines("config_version=5", "", "[shader_globals]", "", `wind_noise={"type": "${type}", "value": "${value}"}`), "res://project.godot", "res://project.godot", (path) => path === "res://noise.tres", undefined, 4).map((f) => `${f.line} ${f.rule}`)

describe("a Godot 4 global shader parameter of a sampler type", () => {
  it("loads its value: a file of the pack is fine", () => {
    expect(shaderGlobal("res://noise.tres")).toEqual([])
    expect(shaderGlobal("0.5", "float")).toEqual([])
  })

  it("is the error when the value is outside the pack or a file the pack lacks", () => {
    for (const value of ["payload.tres", "res://saves/payload.tres", "user://payload.tres"]) expect(shaderGlobal(value), value).toEqual(["5 pack-hostile-path"])
  })
})
