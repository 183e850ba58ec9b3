// The pages' routes (dev sign-in) on a second app over a test app's runtime: releases made through the release API show
// up in the pages. Browsers are simulated with Authorization headers or cookies.
import { makeApp } from "../../adapters/http/App.ts"
import { browserRoutes } from "../../adapters/http/pages/index.ts"
import { makeSessionCodec } from "../../adapters/http/session.ts"
import { TEST_BASE_URL, type TestApp } from "./testApp.ts"

export const makePagesApp = async (t: TestApp) =>
  makeApp({
    runtime: t.runtime,
    baseUrl: () => TEST_BASE_URL,
    sessions: await makeSessionCodec(crypto.getRandomValues(new Uint8Array(32))),
    routes: browserRoutes({ signIn: { kind: "dev" }, secret: crypto.getRandomValues(new Uint8Array(32)), submitApiUrl: () => `${TEST_BASE_URL}/submit-api` }),
  })
