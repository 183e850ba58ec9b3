// Concurrent credential requests on the SQL stores (SQLite and MariaDB), where the limits and the pin are enforced by
// the database: two first exchanges held together at the pin through the app; then on the real server over loopback,
// two first exchanges sent at once, a registration found by the token's canonical case, 25 registrations on one game
// and 55 API key creations at once. The same on the memory stores: test/http/trustedPublishing.test.ts, apiKeys.test.ts.
import { mkdtempSync } from "node:fs"
import { join } from "node:path"
import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { ciIssuer, layerJoseCiIdentity } from "../../adapters/identity/JoseCiIdentity.ts"
import { layerSqlRecords } from "../../adapters/sql/index.ts"
import { freshDatabase } from "../setup/mariadb.ts"
import { apiClient } from "../support/api.ts"
import { type CiIssuerDouble, startCiIssuer } from "../support/ciIssuer.ts"
import {
  type Api,
  createKeysConcurrently,
  exchangeIdToken,
  githubRepo,
  makePinBarrier,
  raceFirstExchanges,
  registerConcurrently,
  registerPublisher,
  withPinBarrier,
} from "../support/credentialRaces.ts"
import { type RunningServer, startServer } from "../support/server.ts"
import { makeTestApp, newGame, type TestApp } from "../support/testApp.ts"

let issuer: CiIssuerDouble
beforeAll(async () => {
  issuer = await startCiIssuer()
})
afterAll(() => issuer.close())

const DATABASES: ReadonlyArray<readonly [string, (name: string) => Promise<{ records: () => ReturnType<typeof layerSqlRecords>; env: Record<string, string> }>]> = [
  ["SQLite", async (name) => {
    const path = join(mkdtempSync(join(inject("runDir"), `${name}-`)), "records.sqlite")
    return { records: () => layerSqlRecords({ target: { kind: "sqlite", path } }), env: {} }
  }],
  ["MariaDB", async (name) => {
    const url = await freshDatabase(inject("mariadbUrl"), name)
    return { records: () => layerSqlRecords({ target: { kind: "mysql", url } }), env: { DATABASE_URL: url } }
  }],
]

describe.each(DATABASES)("on %s", (_name, database) => {
  describe("two first exchanges with different ids, held together at the pin (the app)", () => {
    let app: TestApp
    const barrier = makePinBarrier()
    beforeAll(async () => {
      const identity = layerJoseCiIdentity({ issuers: [ciIssuer("github", issuer.githubIssuer)], audience: "pckgate" })
      const { records } = await database("pins")
      app = await makeTestApp({ override: Layer.merge(identity, withPinBarrier(records(), barrier)) as Layer.Layer<never> })
    })
    afterAll(() => app.dispose())

    test("exactly one pins its ids; the other is refused as a re-created repository would be", async () => {
      const owner = await app.token("race-owner")
      await raceFirstExchanges(issuer, app.api, { owner, gameId: await newGame(app, owner, "Raced") }, "race-org", 3, barrier)
    })
  })

  describe("the real server over loopback", () => {
    let server: RunningServer
    let api: Api
    let owner: string
    beforeAll(async () => {
      const { env } = await database("credentials")
      server = await startServer({
        env: { ...env, RATE_LIMIT_COUNT: "100", TRUSTED_PUBLISHING_GITHUB_ISSUER: issuer.githubIssuer, TRUSTED_PUBLISHING_GITLAB_ISSUER: issuer.gitlabIssuer },
      })
      api = apiClient(server.baseUrl)
      owner = server.token("server-owner")
    })
    afterAll(() => server?.stop())

    const game = async (name: string) => (await api.createGame(owner, { name })).body.gameId as string

    test("two first exchanges at once: exactly one pins; pinned ids are shown and enforced", async () => {
      await raceFirstExchanges(issuer, api, { owner, gameId: await game("Raced") }, "server-race", 4)
    })

    test("a registration in one case is found by the token's canonical case", async () => {
      const gameId = await game("Cased")
      await registerPublisher(api, owner, gameId, githubRepo("server-org/cased-game").publisher)
      const minted = await exchangeIdToken(api, await issuer.github(githubRepo("Server-Org/Cased-Game").claims()))
      expect([minted.status, minted.body.gameId]).toEqual([200, gameId])
    })

    test("25 trusted publisher registrations at once on one game: exactly 20 are added", async () => {
      await registerConcurrently(api, owner, await game("Busy"))
    })

    test("55 API key creations at once: the account ends with exactly 50 live keys", async () => {
      await createKeysConcurrently(api, server.token("hoarder"))
    })
  })
})
