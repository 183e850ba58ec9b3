import { Context, type Effect } from "effect"

/** New identifiers. `prefix` names the kind of thing (`gm` game, `ui` upload intent, `sub` submission …). */
export class Ids extends Context.Service<Ids, {
  next(prefix: string): Effect.Effect<string>
}>()("pckgate/ports/Ids") {}
