// The lifecycle use cases (domain/release/Lifecycle.ts, and review decisions from domain/review/Review.ts) on a store,
// with real object moves in a memory object store whose moves take a while (so concurrent requests interleave on every
// store) and whose calls a test can hold (test/support/lifecycleUseCases.ts):
// concurrent takedowns, game-wide against single steps both ways, approval and rejection against a game-wide takedown,
// takedown against reinstate and against activate, the game-wide takedown and its reverse, bytes planted at a
// taken-down release's key, moves left half done, the takedown fallback, re-verification, and random sequences that
// check the invariants, the quarantine and exactly one timeline event per change after every step.
import { assert, layer } from "@effect/vitest"
import { Effect, Exit, type Layer, Option } from "effect"
import fc from "fast-check"
import type { Principal } from "../../domain/auth/Principal.ts"
import {
  ActivateBody,
  activateRelease,
  reinstateGame,
  reinstateRelease,
  takeDownGame,
  TakedownBody,
  takeDownRelease,
  withdrawRelease,
} from "../../domain/release/Lifecycle.ts"
import { quarantineObjectKey } from "../../domain/release/ObjectKey.ts"
import type { Release } from "../../domain/release/Release.ts"
import { approveRelease, rejectRelease, RejectBody } from "../../domain/review/Review.ts"
import { GameStore } from "../../ports/GameStore.ts"
import { ObjectStorage } from "../../ports/ObjectStorage.ts"
import { ReleaseStore } from "../../ports/ReleaseStore.ts"
import { Timeline } from "../../ports/Timeline.ts"
import {
  activeOf,
  admin,
  approve,
  assertAllStoredRight,
  AT,
  both,
  bytesOf,
  gameWith,
  has,
  inOrder,
  outcomeOf,
  releaseOf,
  scanned,
  secondWhileFirstIsInside,
  type StoreFault,
  type Stores,
  StoreFaults,
  submit,
  type UseCaseServices,
  withUseCaseServices,
} from "../support/lifecycleUseCases.ts"

/** What `step` fails with when the store fault `fault` is armed for it. */
const failedWith = <A, E extends { readonly _tag: string }, R>(fault: StoreFault, step: Effect.Effect<A, E, R>) =>
  Effect.flatMap(StoreFaults, ({ armed }) => {
    armed.add(fault)
    return Effect.map(Effect.flip(step), (error) => error._tag)
  })

export const lifecycleUseCasesContract = <E>(name: string, makeLayer: () => Layer.Layer<Stores, E>) =>
  // Live services: the lease's waits and the slow moves sleep for real.
  layer(withUseCaseServices(makeLayer()), { timeout: 300_000, excludeTestServices: true })(`Lifecycle use cases: ${name}`, (it) => {
    it.effect("two takedowns of one release at once: one is done, the other refused, and the object stays in quarantine", () =>
      Effect.gen(function*() {
        for (let round = 0; round < 3; round++) {
          const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
          yield* approve(gameId, "1.0.0")
          yield* approve(gameId, "2.0.0")
          const takedown = takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "malware" }))
          const exits = yield* both(takedown, takedown)
          assert.deepStrictEqual(exits.map(outcomeOf).sort(), ["ReleaseNotApproved", "ok"])
          assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down")
          assert.strictEqual(yield* activeOf(gameId), "1.0.0")
          yield* assertAllStoredRight(gameId)
          const events = (yield* Timeline.use((t) => t.list(gameId, 0, 100))).filter((e) => e.kind === "taken_down")
          assert.strictEqual(events.length, 1, "one takedown recorded")
        }
      }))

    it.effect("an approval and a game-wide takedown at once: a release approved before the takedown is recorded is taken down with it", () =>
      Effect.gen(function*() {
        for (const takedownFirst of [true, false]) {
          const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
          yield* approve(gameId, "1.0.0")
          yield* scanned(gameId, "2.0.0")
          const down = takeDownGame(admin, gameId, TakedownBody.make({ reason: "publisher compromised" }))
          const approval = approveRelease(admin, gameId, "2.0.0")
          // Inside its moves, the takedown has listed the approved releases; inside its digest, the approval has passed the gate.
          const [downExit, approvalExit] = yield* inOrder(takedownFirst, takedownFirst ? "move" : "digest", down, approval)
          const order = takedownFirst ? "takedown first" : "approval first"
          assert.deepStrictEqual([outcomeOf(downExit), outcomeOf(approvalExit)], ["ok", "ok"], order)
          const events = (yield* Timeline.use((t) => t.list(gameId, 0, 100))).map((e) => `${e.kind} ${e.version}`)
          const two = yield* releaseOf(gameId, "2.0.0")
          if (two.status === "taken_down") {
            assert.isNull(yield* activeOf(gameId), order)
          } else {
            // Approved after the takedown was recorded: a decision of its own, which publishes the game again.
            assert.strictEqual(two.status, "approved", order)
            assert.isAbove(events.indexOf("approved 2.0.0"), events.indexOf("taken_down 1.0.0"), `${order}: ${events.join(", ")}`)
            assert.strictEqual(yield* activeOf(gameId), "2.0.0", order)
          }
          assert.strictEqual((yield* releaseOf(gameId, "1.0.0")).status, "taken_down", order)
          yield* assertAllStoredRight(gameId)
        }
      }))

    it.effect("a rejection waits for a lifecycle change of its game in progress, and is then decided", () =>
      Effect.gen(function*() {
        const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
        yield* approve(gameId, "1.0.0")
        const [down, rejected] = yield* secondWhileFirstIsInside(
          "move",
          takeDownGame(admin, gameId, TakedownBody.make({ reason: "all" })),
          rejectRelease(admin, gameId, "2.0.0", RejectBody.make({ reason: "crashes" })),
        )
        assert.deepStrictEqual([outcomeOf(down), outcomeOf(rejected)], ["ok", "ok"])
        const events = (yield* Timeline.use((t) => t.list(gameId, 0, 100))).map((e) => `${e.kind} ${e.version}`)
        assert.isAbove(events.indexOf("rejected 2.0.0"), events.indexOf("taken_down 1.0.0"), events.join(", "))
        assert.strictEqual(yield* Effect.map(GameStore.use((g) => g.get(gameId)), (g) => Option.getOrThrow(g).activeVersion), null)
      }))

    it.effect("a game-wide and a single takedown, whichever goes first: every release quarantined, the later one refused only when nothing is left", () =>
      Effect.gen(function*() {
        for (const gameFirst of [true, false]) {
          const { gameId } = yield* gameWith(["1.0.0", "2.0.0", "3.0.0"])
          for (const v of ["1.0.0", "2.0.0", "3.0.0"]) yield* approve(gameId, v)
          const game = takeDownGame(admin, gameId, TakedownBody.make({ reason: "all" }))
          const one = takeDownRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "one" }))
          const [gameExit, oneExit] = yield* inOrder(gameFirst, "move", game, one)
          const order = gameFirst ? "game first" : "single first"
          assert.deepStrictEqual([outcomeOf(gameExit), outcomeOf(oneExit)], gameFirst ? ["ok", "ReleaseNotApproved"] : ["ok", "ok"], order)
          for (const v of ["1.0.0", "2.0.0", "3.0.0"]) assert.strictEqual((yield* releaseOf(gameId, v)).status, "taken_down", `${order}: ${v}`)
          assert.strictEqual((yield* releaseOf(gameId, "3.0.0")).takedownScope, gameFirst ? "game_active" : "release", order)
          assert.isNull(yield* activeOf(gameId))
          yield* assertAllStoredRight(gameId)
        }
      }))

    it.effect("a game-wide and a single reinstate, whichever goes first: every release back at its key, the later one refused only when nothing is left", () =>
      Effect.gen(function*() {
        for (const gameFirst of [true, false]) {
          const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
          for (const v of ["1.0.0", "2.0.0"]) yield* approve(gameId, v)
          yield* takeDownGame(admin, gameId, TakedownBody.make({ reason: "all" }))
          const game = reinstateGame(admin, gameId, TakedownBody.make({ reason: "cleared" }))
          const one = reinstateRelease(admin, gameId, "1.0.0", TakedownBody.make({ reason: "cleared" }))
          const [gameExit, oneExit] = yield* inOrder(gameFirst, "move", game, one)
          const order = gameFirst ? "game first" : "single first"
          assert.deepStrictEqual([outcomeOf(gameExit), outcomeOf(oneExit)], gameFirst ? ["ok", "ReleaseNotTakenDown"] : ["ok", "ok"], order)
          for (const v of ["1.0.0", "2.0.0"]) assert.strictEqual((yield* releaseOf(gameId, v)).status, "approved", `${order}: ${v}`)
          assert.strictEqual(yield* activeOf(gameId), "2.0.0", `${order}: the release active before the game-wide takedown`)
          yield* assertAllStoredRight(gameId)
        }
      }))

    it.effect("bytes planted at a taken-down release's own key (a kept upload URL) are replaced by the release's on reinstate, never kept", () =>
      Effect.gen(function*() {
        const { gameId } = yield* gameWith(["1.0.0"])
        yield* approve(gameId, "1.0.0")
        yield* takeDownRelease(admin, gameId, "1.0.0", TakedownBody.make({ reason: "malware" }))
        const release = yield* releaseOf(gameId, "1.0.0")
        const storage = yield* ObjectStorage
        const impostor = bytesOf(gameId, "impostor")
        yield* storage.put(release.objectKey, new Blob([impostor]).stream(), { maxBytes: impostor.length })
        const back = yield* reinstateRelease(admin, gameId, "1.0.0", TakedownBody.make({ reason: "cleared" }))
        assert.strictEqual(back.releases[0]!.status, "approved")
        const stored = Option.getOrThrow(yield* storage.digest(release.objectKey))
        assert.deepStrictEqual(stored, { sha256: release.sha256, sizeBytes: release.sizeBytes })
        yield* assertAllStoredRight(gameId)
        // Planted again after a second takedown, this time through the game-wide reinstate.
        yield* takeDownGame(admin, gameId, TakedownBody.make({ reason: "again" }))
        yield* storage.put(release.objectKey, new Blob([impostor]).stream(), { maxBytes: impostor.length })
        yield* reinstateGame(admin, gameId, TakedownBody.make({ reason: "cleared" }))
        assert.deepStrictEqual(Option.getOrThrow(yield* storage.digest(release.objectKey)), { sha256: release.sha256, sizeBytes: release.sizeBytes })
        yield* assertAllStoredRight(gameId)
      }))

    it.effect("a move left half done (the release's bytes at both keys) is completed by the next takedown or reinstate", () =>
      Effect.gen(function*() {
        const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
        for (const v of ["1.0.0", "2.0.0"]) yield* approve(gameId, v)
        const storage = yield* ObjectStorage
        const release = yield* releaseOf(gameId, "2.0.0")
        const quarantine = quarantineObjectKey(gameId, "2.0.0", release.sha256)
        const copy = (to: string) => Effect.flatMap(storage.read(release.objectKey), (body) => storage.put(to, body, { maxBytes: release.sizeBytes }))
        yield* copy(quarantine)
        const down = yield* takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "malware" }))
        assert.strictEqual(down.releases[0]!.status, "taken_down")
        yield* assertAllStoredRight(gameId)
        yield* Effect.flatMap(storage.read(quarantine), (body) => storage.put(release.objectKey, body, { maxBytes: release.sizeBytes }))
        const back = yield* reinstateRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "cleared" }))
        assert.strictEqual(back.releases[0]!.status, "approved")
        yield* assertAllStoredRight(gameId)
      }))

    it.effect("a takedown of the active release never falls back to a staged release that was never active", () =>
      Effect.gen(function*() {
        const { gameId, owner } = yield* gameWith(["1.0.0", "2.0.0", "3.0.0"], { "2.0.0": "manual" })
        for (const v of ["1.0.0", "2.0.0", "3.0.0"]) yield* approve(gameId, v)
        assert.strictEqual(yield* activeOf(gameId), "3.0.0")
        const down = yield* takeDownRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "malware" }))
        assert.strictEqual(down.activeVersion, "1.0.0", "2.0.0 is staged and was never live")
        // Once it has been live, it is a fallback like any other.
        yield* activateRelease(owner, gameId, "2.0.0", ActivateBody.make({}))
        yield* activateRelease(owner, gameId, "1.0.0", ActivateBody.make({ reason: "rollback" }))
        assert.strictEqual((yield* takeDownRelease(admin, gameId, "1.0.0", TakedownBody.make({ reason: "malware" }))).activeVersion, "2.0.0")
      }))

    it.effect("takedown and reinstate of one release at once: whichever order, the object is where the status says", () =>
      Effect.gen(function*() {
        for (const start of ["approved", "taken_down"] as const) {
          const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
          yield* approve(gameId, "1.0.0")
          yield* approve(gameId, "2.0.0")
          if (start === "taken_down") yield* takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "first" }))
          const [down, back] = yield* both(
            takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "again" })),
            reinstateRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "cleared" })),
          )
          const status = (yield* releaseOf(gameId, "2.0.0")).status
          // Each answer agrees with the order they ran in.
          if (start === "approved") {
            assert.strictEqual(outcomeOf(down), "ok")
            assert.strictEqual(status, outcomeOf(back) === "ok" ? "approved" : "taken_down")
          } else {
            assert.strictEqual(outcomeOf(back), "ok")
            assert.strictEqual(status, outcomeOf(down) === "ok" ? "taken_down" : "approved")
          }
          yield* assertAllStoredRight(gameId)
        }
      }))

    it.effect("takedown and activate of one release at once: never artifact_missing; the taken-down release is never left active", () =>
      Effect.gen(function*() {
        for (let round = 0; round < 3; round++) {
          const { gameId, owner } = yield* gameWith(["1.0.0", "2.0.0"])
          yield* approve(gameId, "1.0.0")
          yield* approve(gameId, "2.0.0")
          const [down, live] = yield* both(
            takeDownRelease(admin, gameId, "1.0.0", TakedownBody.make({ reason: "malware" })),
            activateRelease(owner, gameId, "1.0.0", ActivateBody.make({ reason: "rollback" })),
          )
          assert.strictEqual(outcomeOf(down), "ok")
          assert.oneOf(outcomeOf(live), ["ok", "ReleaseNotActivatable"])
          assert.strictEqual((yield* releaseOf(gameId, "1.0.0")).status, "taken_down")
          assert.strictEqual(yield* activeOf(gameId), "2.0.0")
          yield* assertAllStoredRight(gameId)
        }
      }))

    it.effect("the game-wide reinstate brings back only what the game-wide takedown took, and the release active then", () =>
      Effect.gen(function*() {
        const { gameId } = yield* gameWith(["0.5.0", "1.0.0", "2.0.0"], { "0.5.0": "manual" })
        for (const v of ["0.5.0", "1.0.0", "2.0.0"]) yield* approve(gameId, v)
        assert.strictEqual(yield* activeOf(gameId), "2.0.0")
        yield* takeDownRelease(admin, gameId, "2.0.0", TakedownBody.make({ reason: "malware" }))
        assert.strictEqual(yield* activeOf(gameId), "1.0.0")
        const all = yield* takeDownGame(admin, gameId, TakedownBody.make({ reason: "publisher compromised" }))
        assert.deepStrictEqual(all.releases.map((r) => [r.version, r.takedownScope]), [["0.5.0", "game"], ["1.0.0", "game_active"]])
        assert.isNull(yield* activeOf(gameId))
        const back = yield* reinstateGame(admin, gameId, TakedownBody.make({ reason: "cleared" }))
        assert.deepStrictEqual(back.releases.map((r) => [r.version, r.status]), [["0.5.0", "approved"], ["1.0.0", "approved"]])
        assert.strictEqual(back.activeVersion, "1.0.0", "the release active before the game-wide takedown")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down", "taken down alone: stays down")
        assert.strictEqual((yield* releaseOf(gameId, "0.5.0")).takedownScope ?? null, null)
        const game = Option.getOrThrow(yield* GameStore.use((g) => g.get(gameId)))
        assert.deepStrictEqual(game.activeReason, { cause: "game_reinstate", actor: "user:admin", at: AT })
        yield* assertAllStoredRight(gameId)
        const again = yield* Effect.flip(reinstateGame(admin, gameId, TakedownBody.make({ reason: "again" })))
        assert.strictEqual(again._tag, "ReleaseNotTakenDown", "nothing left that the game-wide takedown took")
      }))

    it.effect("a takedown or reinstate whose store step was written but answered a failure (COMMIT timed out) keeps its moves: each object is where its record says", () =>
      Effect.gen(function*() {
        const { gameId, owner } = yield* gameWith(["1.0.0", "2.0.0"])
        for (const v of ["1.0.0", "2.0.0"]) yield* approve(gameId, v)
        const reason = TakedownBody.make({ reason: "malware" })
        assert.strictEqual(yield* failedWith("commit-then-fail", takeDownRelease(admin, gameId, "2.0.0", reason)), "Unavailable")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down")
        // Still in quarantine: URLs issued before the takedown do not work again.
        yield* assertAllStoredRight(gameId)
        assert.strictEqual(yield* failedWith("commit-then-fail", reinstateRelease(admin, gameId, "2.0.0", reason)), "Unavailable")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "approved")
        yield* assertAllStoredRight(gameId)
        // At its key: activating it finds its bytes (never artifact_missing).
        assert.strictEqual((yield* activateRelease(owner, gameId, "2.0.0", ActivateBody.make({}))).activeVersion, "2.0.0")
        // The game-wide steps the same way.
        assert.strictEqual(yield* failedWith("commit-then-fail", takeDownGame(admin, gameId, reason)), "Unavailable")
        for (const v of ["1.0.0", "2.0.0"]) assert.strictEqual((yield* releaseOf(gameId, v)).status, "taken_down", v)
        yield* assertAllStoredRight(gameId)
        assert.strictEqual(yield* failedWith("commit-then-fail", reinstateGame(admin, gameId, reason)), "Unavailable")
        for (const v of ["1.0.0", "2.0.0"]) assert.strictEqual((yield* releaseOf(gameId, v)).status, "approved", v)
        assert.strictEqual(yield* activeOf(gameId), "2.0.0")
        yield* assertAllStoredRight(gameId)
      }))

    it.effect("a store step that failed unwritten has its moves undone; when the record cannot be read either, the objects end in quarantine", () =>
      Effect.gen(function*() {
        const { armed } = yield* StoreFaults
        const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
        for (const v of ["1.0.0", "2.0.0"]) yield* approve(gameId, v)
        const reason = TakedownBody.make({ reason: "malware" })
        assert.strictEqual(yield* failedWith("fail-before-commit", takeDownRelease(admin, gameId, "2.0.0", reason)), "Unavailable")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "approved")
        yield* assertAllStoredRight(gameId)
        yield* takeDownRelease(admin, gameId, "2.0.0", reason)
        assert.strictEqual(yield* failedWith("fail-before-commit", reinstateRelease(admin, gameId, "2.0.0", reason)), "Unavailable")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down")
        yield* assertAllStoredRight(gameId)
        // Unknown outcome, unreadable record: a reinstate's object goes back to quarantine...
        assert.strictEqual(yield* failedWith("fail-unreadable", reinstateRelease(admin, gameId, "2.0.0", reason)), "Unavailable")
        armed.delete("reads-fail")
        assert.strictEqual((yield* releaseOf(gameId, "2.0.0")).status, "taken_down")
        yield* assertAllStoredRight(gameId)
        // ...and a takedown's stays there, though its record (not written) still says approved: nothing is served that
        // the record may not allow. The next takedown of the release finds the object there and finishes.
        assert.strictEqual(yield* failedWith("fail-unreadable", takeDownRelease(admin, gameId, "1.0.0", reason)), "Unavailable")
        armed.delete("reads-fail")
        const one = yield* releaseOf(gameId, "1.0.0")
        assert.deepStrictEqual([one.status, yield* has(one.objectKey), yield* has(quarantineObjectKey(gameId, "1.0.0", one.sha256))], ["approved", false, true])
        yield* takeDownRelease(admin, gameId, "1.0.0", reason)
        yield* assertAllStoredRight(gameId)
      }))

    it.effect("a game-wide reinstate leaves the pointer alone when a release was made active since", () =>
      Effect.gen(function*() {
        const { gameId } = yield* gameWith(["1.0.0", "2.0.0"])
        yield* approve(gameId, "1.0.0")
        yield* takeDownGame(admin, gameId, TakedownBody.make({ reason: "all" }))
        yield* approve(gameId, "2.0.0")
        assert.strictEqual(yield* activeOf(gameId), "2.0.0")
        const back = yield* reinstateGame(admin, gameId, TakedownBody.make({ reason: "cleared" }))
        assert.strictEqual(back.activeVersion, "2.0.0")
        assert.strictEqual((yield* releaseOf(gameId, "1.0.0")).status, "approved")
        yield* assertAllStoredRight(gameId)
      }))

    it.effect("activate and reinstate verify the stored bytes again: tampered is checksum_mismatch, deleted is artifact_missing; nothing changes", () =>
      Effect.gen(function*() {
        const { gameId, owner } = yield* gameWith(["1.0.0", "2.0.0", "3.0.0"])
        for (const v of ["1.0.0", "2.0.0", "3.0.0"]) yield* approve(gameId, v)
        const storage = yield* ObjectStorage
        const one = yield* releaseOf(gameId, "1.0.0")
        yield* storage.delete(one.objectKey)
        yield* storage.put(one.objectKey, new Blob([bytesOf(gameId, "tampered")]).stream(), { maxBytes: 10_000 })
        assert.strictEqual((yield* Effect.flip(activateRelease(owner, gameId, "1.0.0", ActivateBody.make({}))))._tag, "StoredChecksumMismatch")
        const two = yield* releaseOf(gameId, "2.0.0")
        yield* storage.delete(two.objectKey)
        assert.strictEqual((yield* Effect.flip(activateRelease(owner, gameId, "2.0.0", ActivateBody.make({}))))._tag, "StoredArtifactMissing")
        assert.strictEqual(yield* activeOf(gameId), "3.0.0")
        // Reinstate: tampered in quarantine → refused, and the object goes back to quarantine.
        yield* takeDownRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "check" }))
        const three = yield* releaseOf(gameId, "3.0.0")
        yield* storage.delete(three.quarantineKey!)
        yield* storage.put(three.quarantineKey!, new Blob([bytesOf(gameId, "tampered")]).stream(), { maxBytes: 10_000 })
        assert.strictEqual((yield* Effect.flip(reinstateRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "ok" }))))._tag, "StoredChecksumMismatch")
        assert.strictEqual((yield* releaseOf(gameId, "3.0.0")).status, "taken_down")
        assert.isTrue(yield* has(three.quarantineKey!))
        assert.isFalse(yield* has(three.objectKey))
        yield* storage.delete(three.quarantineKey!)
        assert.strictEqual((yield* Effect.flip(reinstateRelease(admin, gameId, "3.0.0", TakedownBody.make({ reason: "ok" }))))._tag, "StoredArtifactMissing")
        assert.strictEqual((yield* releaseOf(gameId, "3.0.0")).status, "taken_down")
      }))

    it.effect("random sequences through the use cases keep the invariants, the quarantine and exactly one event per change", () =>
      Effect.gen(function*() {
        const run = Effect.runPromiseWith(yield* Effect.context<UseCaseServices>())
        const versions = ["1.0.0", "2.0.0", "0.9.0"]
        const op = fc.record({
          // Weighted so that sequences reach approvals, takedowns and their reversal often.
          type: fc.oneof(
            ...Object.entries({ submit: 4, approve: 5, take_down: 2, take_down_game: 2, reinstate: 2, reinstate_game: 2, activate: 2, reject: 1, withdraw: 1 })
              .map(([type, weight]) => ({ arbitrary: fc.constant(type), weight })),
          ),
          version: fc.constantFrom(...versions),
          manual: fc.boolean(),
        })
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(fc.array(op, { minLength: 10, maxLength: 30, size: "max" }), async (ops) => {
              const { gameId, owner } = await run(gameWith([]))
              const takenDownAlone = new Set<string>()
              const submitted = new Set<string>()
              for (const o of ops) {
                // A version is submitted once (upload-url refuses a used one before anything is recorded).
                if (o.type === "submit" && submitted.has(o.version)) continue
                if (o.type === "submit") submitted.add(o.version)
                const before = await run(snapshot(gameId))
                const exit: Exit.Exit<unknown, { readonly _tag: string }> = await run(Effect.exit(perform(gameId, owner, o)))
                const after = await run(snapshot(gameId))
                const label = `${o.type} ${o.version}: ${outcomeOf(exit)}`
                if (after.active !== null) {
                  const active = after.releases.get(after.active)
                  if (active?.status !== "approved") throw new Error(`${label}: active ${after.active} is ${active?.status}`)
                }
                if (o.type === "reject" && after.active !== before.active) throw new Error(`${label}: a rejection moved the pointer`)
                if (o.type === "reinstate" && after.active !== before.active) throw new Error(`${label}: a reinstate moved the pointer`)
                const appended = after.events.slice(before.events.length)
                if (Exit.isFailure(exit)) {
                  if (appended.length > 0 || after.active !== before.active) throw new Error(`${label}: a refused step changed something`)
                } else {
                  const expected = expectedEvents(o, before, after)
                  if (JSON.stringify(appended) !== JSON.stringify(expected)) {
                    throw new Error(`${label}: events ${JSON.stringify(appended)}, expected exactly ${JSON.stringify(expected)}`)
                  }
                }
                if (o.type === "take_down" && Exit.isSuccess(exit)) takenDownAlone.add(o.version)
                if (o.type === "reinstate" && Exit.isSuccess(exit)) takenDownAlone.delete(o.version)
                for (const version of takenDownAlone) {
                  if (after.releases.get(version)?.status !== "taken_down") throw new Error(`${label}: ${version}, taken down alone, came back`)
                }
                await run(assertAllStoredRight(gameId))
              }
            }),
            { numRuns: 30 },
          )
        )
      }))
  })

interface Snapshot {
  readonly active: string | null
  readonly releases: ReadonlyMap<string, Release>
  /** `kind version` of every timeline event, oldest first. */
  readonly events: ReadonlyArray<string>
}

const snapshot = (gameId: string) =>
  Effect.gen(function*() {
    const releases = yield* ReleaseStore.use((r) => r.listByGame(gameId))
    const events = yield* Timeline.use((t) => t.list(gameId, 0, 10_000))
    return {
      active: yield* activeOf(gameId),
      releases: new Map(releases.map((r) => [r.version, r])),
      events: events.map((e) => `${e.kind} ${e.version}`),
    } satisfies Snapshot
  })

type Op = { readonly type: string; readonly version: string; readonly manual: boolean }


const perform = (gameId: string, owner: Principal, o: Op): Effect.Effect<unknown, { readonly _tag: string }, UseCaseServices> => {
  const reason = TakedownBody.make({ reason: `${o.type} ${o.version}` })
  switch (o.type) {
    case "submit":
      return submit(gameId, o.version, o.manual ? "manual" : "on_approval")
    case "approve":
      return approve(gameId, o.version)
    case "reject":
      return ReleaseStore.use((r) => r.lifecycle(gameId, { type: "reject", version: o.version, by: "admin", at: AT, actor: "user:admin", reason: "no" }))
    case "withdraw":
      return withdrawRelease(owner, gameId, o.version)
    case "activate":
      return activateRelease(owner, gameId, o.version, ActivateBody.make({}))
    case "take_down":
      return takeDownRelease(admin, gameId, o.version, reason)
    case "reinstate":
      return reinstateRelease(admin, gameId, o.version, reason)
    case "take_down_game":
      return takeDownGame(admin, gameId, reason)
    default:
      return reinstateGame(admin, gameId, reason)
  }
}

const KIND_OF_STATUS_CHANGE: Record<string, string> = {
  "pending_review>approved": "approved",
  "pending_review>rejected": "rejected",
  "pending_review>withdrawn": "withdrawn",
  "approved>taken_down": "taken_down",
  "taken_down>approved": "reinstated",
}

/**
 * The events a successful step must have appended, derived from what changed, not from the plan: one per release whose
 * status changed (in version order of the step), and one `activated` when the pointer moved to a release or an
 * activate ran; a submission is its upload intent and its finalize.
 */
const expectedEvents = (o: Op, before: Snapshot, after: Snapshot): ReadonlyArray<string> => {
  if (o.type === "submit") return [`upload_url_issued ${o.version}`, `finalized ${o.version}`]
  const changed = [...after.releases.values()].filter((r) => before.releases.get(r.version)?.status !== r.status)
  const statusEvents = changed.map((r) => `${KIND_OF_STATUS_CHANGE[`${before.releases.get(r.version)!.status}>${r.status}`]} ${r.version}`)
  const moved = o.type === "activate" || (after.active !== null && after.active !== before.active)
  return [...statusEvents, ...(moved ? [`activated ${after.active}`] : [])]
}
