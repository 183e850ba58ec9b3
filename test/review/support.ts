// Packs and releases for the pack-reading tests: a small Godot 3 layout written byte by byte, uploaded through the
// release API of the memory-backed app, then scanned by the real scanner.
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { scanUnscannedReleases } from "../../domain/scan/ScanReleases.ts"
import { ByteBuilder, utf8 } from "../scanner/support/bytes.ts"
import { writePack, type WriterEntry } from "../scanner/support/packWriter.ts"
import { makeApp } from "../../adapters/http/App.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import { makeSessionCodec, SESSION_COOKIE } from "../../adapters/http/session.ts"
import { newGame, release, TEST_BASE_URL, type TestApp } from "../support/testApp.ts"

export const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")

const variantString = (b: ByteBuilder, text: string): ByteBuilder => {
  const bytes = utf8(text)
  b.u32(4).u32(bytes.length).bytes(bytes)
  return b.zeros((4 - (bytes.length % 4)) % 4)
}

/** An ECFG project.binary: `application/config/name`, `config_version` and a bool, as the exporter encodes them. */
export const projectBinary = (name: string): Uint8Array => {
  const b = new ByteBuilder().ascii("ECFG").u32(3)
  const setting = (key: string, value: Uint8Array) => {
    const k = utf8(key)
    b.u32(k.length).bytes(k).u32(value.length).bytes(value)
  }
  setting("config_version", new ByteBuilder().u32(2).u32(4).build())
  setting("application/config/name", variantString(new ByteBuilder(), name).build())
  setting("display/window/size/fullscreen", new ByteBuilder().u32(1).u32(1).build())
  return b.build()
}

export const MAIN_V1 = `extends Node

func _ready():
\tprint("hello")
\tOS.execute("ls", [], true)
`

export const MAIN_V2 = `extends Node

func _ready():
\tprint("hello again")
\tOS.execute("ls", [], true)
\tvar f = File.new()
\tf.open("user://save.txt", File.WRITE)
`

export const SCENE = `[gd_scene load_steps=2 format=2]

[sub_resource type="GDScript" id=1]
script/source = "extends Node

func _ready():
\tprint(\\"built in\\")
"

[node name="Main" type="Node"]
script = SubResource( 1 )
`

const MANIFEST = (version: string) =>
  JSON.stringify({ id: "reading-test", name: "Reading Test", version, engine_sdk: "1.0.0", entry_scene: "res://main.tscn", min_players: 1, max_players: 2 })

/** A Godot 3 pack (format 1): a script, a compiled script behind a .remap, a text scene with a built-in script, project.binary. */
export const readingPack = (version: string, main: string, extra: ReadonlyArray<WriterEntry> = []): Uint8Array =>
  writePack({
    format: 1,
    entries: [
      { path: "res://main.gd", data: utf8(main) },
      { path: "res://main.tscn", data: utf8(SCENE) },
      { path: "res://player.gd.remap", data: utf8('[remap]\n\npath="res://player.gdc"\n') },
      { path: "res://player.gdc", data: new ByteBuilder().ascii("GDSC").u32(13).zeros(56).build() },
      { path: "res://project.binary", data: projectBinary("Reading Test") },
      { path: "res://manifest.json", data: utf8(MANIFEST(version)) },
      { path: "res://icon.png", data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(100).fill(7)]) },
      ...extra,
    ],
  })

/** Uploads `bytes` as `version` through the release API and runs the background scan. */
export const shipPack = async (t: TestApp, owner: string, gameId: string, version: string, bytes: Uint8Array) => {
  const declaration = { version, sha256: sha256Hex(bytes), sizeBytes: bytes.length }
  const finalized = await release(t, owner, gameId, { bytes, declaration })
  if (finalized.status !== 201) throw new Error(`finalize failed: ${JSON.stringify(finalized.body)}`)
  await t.runtime.runPromise(scanUnscannedReleases({ limit: 10 }).pipe(Effect.asVoid) as Effect.Effect<void>)
}

export const readingGame = async (t: TestApp) => {
  const owner = await t.token("owner")
  const admin = await t.token("admin", { admin: true })
  const stranger = await t.token("stranger")
  const gameId = await newGame(t, owner, "Reading Test")
  return { owner, admin, stranger, gameId }
}

/** The browser routes (pages) on the test app's runtime, with a dev sign-in for cookies. */
export const pagesOf = async (t: TestApp) => {
  const pages = makeApp({
    runtime: t.runtime,
    baseUrl: () => TEST_BASE_URL,
    sessions: await makeSessionCodec(crypto.getRandomValues(new Uint8Array(32))),
    routes: browserRoutes({ signIn: { kind: "dev" }, secret: crypto.getRandomValues(new Uint8Array(32)), submitApiUrl: () => `${TEST_BASE_URL}/submit-api` }),
  })
  /** A session cookie of `user`, signed in on the dev page. */
  const signIn = async (user: string, admin: boolean) => {
    const response = await pages.fetch(new Request(`${TEST_BASE_URL}/auth/dev`, {
      method: "POST",
      headers: { origin: TEST_BASE_URL, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ user, ...(admin ? { admin: "1" } : {}), return_to: "/admin" }).toString(),
    }))
    return response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!.split(";")[0]!
  }
  const get = (path: string, cookie?: string) =>
    pages.fetch(new Request(`${TEST_BASE_URL}${path}`, { headers: cookie === undefined ? {} : { cookie }, redirect: "manual" }))
  return { signIn, get }
}
