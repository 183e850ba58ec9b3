// The outbox in memory (its own state, for tests and embedding). Every operation is one synchronous step, which is
// what makes claiming atomic here.
import { Effect, Layer, Option } from "effect"
import { type ClaimedDelivery, type Delivery, type LeaseRef, NotificationOutbox } from "../../ports/NotificationOutbox.ts"

interface Row {
  delivery: Delivery
  lease: string | null
  leasedUntil: Date | null
}

const byDueTime = (a: Row, b: Row) =>
  a.delivery.nextAttemptAt.getTime() - b.delivery.nextAttemptAt.getTime() || (a.delivery.id < b.delivery.id ? -1 : a.delivery.id > b.delivery.id ? 1 : 0)

export const makeMemoryNotificationOutbox = (): NotificationOutbox["Service"] => {
  const rows = new Map<string, Row>()
  const keys = new Set<string>()
  const held = (claim: LeaseRef): Row | undefined => {
    const row = rows.get(claim.id)
    return row !== undefined && row.lease === claim.lease && row.delivery.status === "pending" ? row : undefined
  }
  return NotificationOutbox.of({
    enqueue: (events) =>
      Effect.sync(() =>
        events.filter((event) => {
          if (keys.has(event.dedupeKey) || rows.has(event.id)) return false
          keys.add(event.dedupeKey)
          rows.set(event.id, {
            delivery: { ...event, status: "pending", attempts: 0, nextAttemptAt: event.createdAt, lastError: null, finishedAt: null },
            lease: null,
            leasedUntil: null,
          })
          return true
        })
      ),
    claimDue: ({ now, limit, lease, leasedUntil }) =>
      Effect.sync(() => {
        const due = [...rows.values()]
          .filter((row) =>
            row.delivery.status === "pending" &&
            row.delivery.nextAttemptAt.getTime() <= now.getTime() &&
            (row.leasedUntil === null || row.leasedUntil.getTime() <= now.getTime())
          )
          .sort(byDueTime)
          .slice(0, Math.max(0, limit))
        return due.map((row): ClaimedDelivery => {
          row.delivery = { ...row.delivery, attempts: row.delivery.attempts + 1 }
          row.lease = lease
          row.leasedUntil = leasedUntil
          return { ...row.delivery, lease, leasedUntil }
        })
      }),
    markDelivered: (claim, at) =>
      Effect.sync(() => {
        const row = held(claim)
        if (row === undefined) return false
        row.delivery = { ...row.delivery, status: "delivered", finishedAt: at }
        row.lease = null
        row.leasedUntil = null
        return true
      }),
    markFailed: (claim, failure) =>
      Effect.sync(() => {
        const row = held(claim)
        if (row === undefined) return false
        row.delivery = failure.retryAt === null
          ? { ...row.delivery, status: "abandoned", lastError: failure.error, finishedAt: failure.at }
          : { ...row.delivery, nextAttemptAt: failure.retryAt, lastError: failure.error }
        row.lease = null
        row.leasedUntil = null
        return true
      }),
    get: (id) => Effect.sync(() => Option.map(Option.fromNullishOr(rows.get(id)), (row) => row.delivery)),
    countPending: () =>
      Effect.sync(() => {
        let pending = 0
        for (const row of rows.values()) if (row.delivery.status === "pending") pending++
        return pending
      }),
    pruneFinished: (createdBefore) =>
      Effect.sync(() => {
        let pruned = 0
        for (const [id, row] of rows) {
          if (row.delivery.status === "pending" || row.delivery.createdAt.getTime() >= createdBefore.getTime()) continue
          rows.delete(id)
          keys.delete(row.delivery.dedupeKey)
          pruned++
        }
        return pruned
      }),
  })
}

export const layerMemoryNotificationOutbox = Layer.sync(NotificationOutbox, makeMemoryNotificationOutbox)
