// Preloaded with `node --import`: records the URL of every module Node loads from here on (ES modules, CommonJS
// required from them, JSON, builtins), so release-flow.mjs can report what a subpath import actually pulled in.
import { registerHooks } from "node:module"

const loaded = new Set()
globalThis.__pckgateLoadedModules = loaded
registerHooks({
  load(url, context, nextLoad) {
    loaded.add(url)
    return nextLoad(url, context)
  },
})
