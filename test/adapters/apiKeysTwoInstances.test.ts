// Two instances sharing one MariaDB: a key revoked on one is refused by the other on its very next request. Keys are
// read from the database on every use (no instance keeps them), so there is no window to wait out.
import { Layer } from "effect"
import { afterAll, beforeAll, expect, inject, test } from "vitest"
import { layerSqlApiKeyStore } from "../../adapters/sql/SqlApiKeyStore.ts"
import { layerSqlDatabase } from "../../adapters/sql/SqlDatabase.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { makeTestApp, type TestApp } from "../support/testApp.ts"

const url = await freshDatabase(inject("mariadbUrl"), "apikeys")
const keysOnTheDatabase = () => Layer.orDie(layerSqlApiKeyStore.pipe(Layer.provide(layerSqlDatabase({ target: { kind: "mysql", url } }))))

let first: TestApp
let second: TestApp
beforeAll(async () => {
  first = await makeTestApp({ override: keysOnTheDatabase() })
  second = await makeTestApp({ override: keysOnTheDatabase() })
})
afterAll(async () => {
  await Promise.all([first.dispose(), second.dispose()])
})

test("a key created on one instance works on the other, and is refused there by the next request after its revocation", async () => {
  const token = await first.token("two-instances")
  const created = await first.api.call("POST", "/api/me/api-keys", { token, body: { name: "shared", games: "all", scopes: ["read"] } })
  expect(created.status).toBe(201)
  const onSecond = () => second.api.call("GET", "/api/me/games", { token: created.body.key })
  expect((await onSecond()).status).toBe(200)
  expect((await onSecond()).status).toBe(200)
  expect((await first.api.call("DELETE", `/api/me/api-keys/${created.body.id}`, { token })).status).toBe(204)
  const refused = await onSecond()
  expect([refused.status, refused.body.error]).toEqual([401, "sign_in_required"])
})
