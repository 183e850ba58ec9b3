import { Context, Effect, Layer } from "effect"
import { type ReviewRequested, ReviewNotifier } from "../../ports/ReviewNotifier.ts"

/** Everything the notifier was asked to send, for assertions and for embedding without a webhook. */
export class ReviewInbox extends Context.Service<ReviewInbox, { readonly events: ReadonlyArray<ReviewRequested> }>()(
  "pckgate/adapters/memory/ReviewInbox",
) {}

export const layerMemoryReviewNotifier = Layer.effectContext(
  Effect.sync(() => {
    const events: Array<ReviewRequested> = []
    return Context.make(ReviewInbox, { events }).pipe(
      Context.add(ReviewNotifier, ReviewNotifier.of({ notify: (event) => Effect.sync(() => void events.push(event)) })),
    )
  }),
)
