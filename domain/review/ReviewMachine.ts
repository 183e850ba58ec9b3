import type { Actor } from "../auth/Actor.ts"
import type { ActiveReason, CatalogStatus } from "../game/Game.ts"
import { publishModeOf, type Release, type ReleaseStatus, type TakedownScope } from "../release/Release.ts"
import { compareVersions } from "../release/VersionOrder.ts"
import type { TimelineEvent } from "../timeline/TimelineEvent.ts"

// The release lifecycle as data: which event is allowed from which status, where the game's active pointer goes, and
// what the timeline records. Stores apply a plan atomically (status compare-and-set, pointer, timeline, change feed);
// the rules live here only.

export type ReviewEvent = { readonly type: "approve" } | { readonly type: "reject"; readonly reason: string }

export type LifecycleEventType = "approve" | "reject" | "withdraw" | "activate" | "take_down" | "reinstate"

const TRANSITIONS: Record<ReleaseStatus, Partial<Record<LifecycleEventType, ReleaseStatus>>> = {
  pending_review: { approve: "approved", reject: "rejected", withdraw: "withdrawn" },
  // `activate` keeps the status and moves the pointer.
  approved: { activate: "approved", take_down: "taken_down" },
  rejected: {},
  withdrawn: {},
  taken_down: { reinstate: "approved" },
}

/** The release status after `event`, or null when the event is not allowed from `status`. */
export const nextReleaseStatus = (status: ReleaseStatus, event: ReviewEvent | { readonly type: LifecycleEventType }): ReleaseStatus | null =>
  TRANSITIONS[status][event.type] ?? null

/** Why an approved release did not become active. */
export type ActivationNote = "lower_than_active" | "staged"

/**
 * Approval activates a release only when it asked to be published on approval and it is newer, by the multipart path's
 * version order (VersionOrder.ts), than the active release: approving an older version never downgrades players.
 */
export const activationOnApproval = (activeVersion: string | null, release: Release): ActivationNote | null => {
  if (publishModeOf(release) === "manual") return "staged"
  if (activeVersion !== null && compareVersions(release.version, activeVersion) <= 0) return "lower_than_active"
  return null
}

/** The newest approved release by version order, or null. */
export const newestApproved = (releases: ReadonlyArray<Release>): Release | null => {
  let newest: Release | null = null
  for (const release of releases) {
    if (release.status !== "approved") continue
    if (newest === null || compareVersions(release.version, newest.version) > 0) newest = release
  }
  return newest
}

/**
 * The most recently approved release: what players got before the game stored its pointer (migration 0008 initialises
 * the pointer with this order). Not the active release any more: read the game's `activeVersion`.
 */
export const activeRelease = (releases: ReadonlyArray<Release>): Release | null => {
  let active: Release | null = null
  for (const release of releases) {
    if (release.status !== "approved" || release.reviewedAt === null) continue
    if (active === null || compareApproval(release, active) > 0) active = release
  }
  return active
}

const compareApproval = (a: Release, b: Release): number =>
  a.reviewedAt!.getTime() - b.reviewedAt!.getTime() ||
  a.createdAt.getTime() - b.createdAt.getTime() ||
  (a.version < b.version ? -1 : a.version > b.version ? 1 : 0)

/**
 * Catalog status: `published` if and only if the game has an active release. Otherwise withdrawn and taken-down
 * releases are ignored: a pending (or a staged, approved) release → review; only rejected ones → rejected; none at all
 * → review, as a new game — except that a game whose releases were taken down, with nothing pending or approved left,
 * is `taken_down`.
 */
export const catalogStatus = (releases: ReadonlyArray<Release>, activeVersion: string | null): CatalogStatus => {
  if (activeVersion !== null) return "published"
  if (releases.some((r) => r.status === "pending_review" || r.status === "approved")) return "review"
  if (releases.some((r) => r.status === "taken_down")) return "taken_down"
  if (releases.some((r) => r.status === "rejected")) return "rejected"
  return "review"
}

// --- Plans: what one lifecycle step changes, computed from the game's state under the store's lock. ---

interface StepBase {
  readonly at: Date
  readonly actor: Actor
}

export type LifecycleStep =
  | StepBase & {
    readonly type: "approve"
    readonly version: string
    readonly by: string
    /** The review gate's override reason (issue 15): approving despite unresolved error findings. */
    readonly overrideReason?: string | null
  }
  | StepBase & { readonly type: "reject"; readonly version: string; readonly by: string; readonly reason: string }
  | StepBase & { readonly type: "withdraw"; readonly version: string }
  | StepBase & { readonly type: "activate"; readonly version: string; readonly reason: string | null }
  | StepBase & {
    readonly type: "take_down"
    readonly versions: ReadonlyArray<string>
    readonly reason: string
    /** version → the key its object was moved to */
    readonly quarantineKeys: Readonly<Record<string, string>>
    /** `game`: a game-wide takedown, recorded on each release so that the game-wide reinstate reverses exactly it. */
    readonly scope?: "release" | "game"
  }
  | StepBase & {
    readonly type: "reinstate"
    readonly versions: ReadonlyArray<string>
    readonly reason: string
    /**
     * `game`: reverses a game-wide takedown; when nothing is active, the release that was active when the game was taken
     * down (scope `game_active`) becomes active again. `release` (the default): approved again, not active.
     */
    readonly scope?: "release" | "game"
  }

export interface LifecycleState {
  readonly activeVersion: string | null
  readonly releases: ReadonlyArray<Release>
  /** The versions that have been the game's active release at some time (the timeline's `activated` events). */
  readonly everActive: ReadonlySet<string>
}

/**
 * What a takedown of the active release falls back to: the newest approved release, by version order, that was live
 * before or asked to go live on approval. A staged (`manual`) release that was never activated is skipped: going live
 * stays its creator's call.
 */
export const takedownFallback = (releases: ReadonlyArray<Release>, everActive: ReadonlySet<string>): Release | null =>
  newestApproved(releases.filter((r) => publishModeOf(r) !== "manual" || everActive.has(r.version)))

export interface LifecyclePlan {
  /** The releases this step changes, as they are after it. */
  readonly updated: ReadonlyArray<Release>
  readonly activeVersion: string | null
  /**
   * Why `activeVersion` is active, when this step (re)activated it: the store records it with the pointer. Null when the
   * step left the pointer alone (or cleared it).
   */
  readonly activeReason: ActiveReason | null
  readonly events: ReadonlyArray<TimelineEvent>
  readonly activationNote: ActivationNote | null
}

export interface LifecycleRefusal {
  readonly version: string
  readonly status: ReleaseStatus | "missing"
}

const stepVersions = (step: LifecycleStep): ReadonlyArray<string> =>
  step.type === "take_down" || step.type === "reinstate" ? step.versions : [step.version]

const changed = (release: Release, step: LifecycleStep, status: ReleaseStatus, activeBefore: string | null): Release => {
  switch (step.type) {
    case "approve":
      return { ...release, status, reviewedBy: step.by, reviewedAt: step.at, rejectionReason: null }
    case "reject":
      return { ...release, status, reviewedBy: step.by, reviewedAt: step.at, rejectionReason: step.reason }
    case "take_down": {
      const takedownScope: TakedownScope = step.scope !== "game" ? "release" : release.version === activeBefore ? "game_active" : "game"
      return { ...release, status, quarantineKey: step.quarantineKeys[release.version] ?? null, takedownReason: step.reason, takedownScope }
    }
    case "reinstate":
      return { ...release, status, quarantineKey: null, takedownReason: null, takedownScope: null }
    default:
      return { ...release, status }
  }
}

/** The plan for `step` on `gameId`'s current state, or the first release whose status refuses it. */
export const planLifecycle = (
  gameId: string,
  state: LifecycleState,
  step: LifecycleStep,
): { readonly plan: LifecyclePlan } | { readonly refused: LifecycleRefusal } => {
  const byVersion = new Map(state.releases.map((r) => [r.version, r]))
  const updated: Array<Release> = []
  for (const version of stepVersions(step)) {
    const release = byVersion.get(version)
    const next = release === undefined ? null : nextReleaseStatus(release.status, step)
    if (release === undefined || next === null) return { refused: { version, status: release?.status ?? "missing" } }
    const after = changed(release, step, next, state.activeVersion)
    updated.push(after)
    byVersion.set(version, after)
  }
  const releasesAfter = [...byVersion.values()]
  const event = (kind: TimelineEvent["kind"], version: string | null, reason: string | null, actor: Actor = step.actor): TimelineEvent => ({
    gameId,
    version,
    kind,
    actor,
    reason,
    at: step.at,
  })
  let activeVersion = state.activeVersion
  let activeCause: ActiveReason["cause"] | null = null
  let activationNote: ActivationNote | null = null
  const events: Array<TimelineEvent> = []
  switch (step.type) {
    case "approve": {
      // An approval despite unresolved error findings keeps its override reason on the event (issue 15).
      events.push(event("approved", step.version, step.overrideReason ?? null))
      activationNote = activationOnApproval(state.activeVersion, updated[0]!)
      if (activationNote === null) [activeVersion, activeCause] = [step.version, "approval"]
      break
    }
    case "reject":
      events.push(event("rejected", step.version, step.reason))
      break
    case "withdraw":
      events.push(event("withdrawn", step.version, null))
      break
    case "activate":
      ;[activeVersion, activeCause] = [step.version, "activation"]
      events.push(event("activated", step.version, step.reason))
      break
    case "take_down": {
      for (const version of step.versions) events.push(event("taken_down", version, step.reason))
      if (activeVersion !== null && step.versions.includes(activeVersion)) {
        ;[activeVersion, activeCause] = [takedownFallback(releasesAfter, state.everActive)?.version ?? null, "takedown_fallback"]
      }
      break
    }
    case "reinstate": {
      for (const version of step.versions) events.push(event("reinstated", version, step.reason))
      // Only what was active when the whole game was taken down comes back active, and only if nothing is active now.
      if (step.scope === "game" && activeVersion === null) {
        const wasActive = step.versions.map((v) => state.releases.find((r) => r.version === v)!).filter((r) => r.takedownScope === "game_active")
        const restored = newestApproved(wasActive.map((r) => byVersion.get(r.version)!))
        if (restored !== null) [activeVersion, activeCause] = [restored.version, "game_reinstate"]
      }
      break
    }
  }
  if (step.type !== "activate" && activeVersion !== null && activeVersion !== state.activeVersion) {
    const why = step.type === "take_down" ? "the active release was taken down" : step.type === "reinstate" ? "the game was reinstated" : null
    events.push(event("activated", activeVersion, why))
  }
  const activeReason = activeVersion !== null && activeCause !== null ? { cause: activeCause, actor: step.actor, at: step.at } : null
  return { plan: { updated, activeVersion, activeReason, events, activationNote } }
}
