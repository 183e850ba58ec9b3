// `node test/support/faultServer.ts`: the server exactly as `npm start` runs it (apps/server/main.ts), except that
// every import of apps/server/records.ts gets faultRecords.ts instead, whose finalize pauses where
// PCKGATE_TEST_PAUSE_AT says. The production server has no such hook; this entry is the only way in.
import { registerHooks } from "node:module"

const PRODUCTION_RECORDS = new URL("../../apps/server/records.ts", import.meta.url).href
const FAULT_RECORDS = new URL("./faultRecords.ts", import.meta.url).href

registerHooks({
  resolve: (specifier, context, nextResolve) => {
    const resolved = nextResolve(specifier, context)
    // faultRecords.ts itself builds on the production module.
    return resolved.url === PRODUCTION_RECORDS && context.parentURL !== FAULT_RECORDS ? { ...resolved, url: FAULT_RECORDS } : resolved
  },
})

await import("../../apps/server/main.ts")
