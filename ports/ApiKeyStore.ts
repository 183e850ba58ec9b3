import type { CredentialRecord } from "../domain/credentials/credentialEvents.ts"
import { Context, type Effect, type Option } from "effect"
import type { ApiKey } from "../domain/credentials/ApiKey.ts"
import type { Unavailable } from "../domain/errors.ts"

/**
 * API keys, shared by every instance and read on every use (no instance keeps them), so a revocation holds on every
 * instance from the moment it is stored.
 */
export class ApiKeyStore extends Context.Service<ApiKeyStore, {
  /**
   * Stores the key unless its owner already holds `limit` live keys (not revoked, not expired at `key.createdAt`);
   * false (and nothing written) when they do. The count and the insert are atomic: concurrent creations of one owner
   * cannot pass the limit together. `record`: the timeline events and webhook deliveries written in the same transaction.
   */
  create(key: ApiKey, limit: number, record?: CredentialRecord): Effect.Effect<boolean, Unavailable>
  /** The key with this SHA-256, revoked and expired ones included (callers judge them). */
  findByHash(keyHash: string): Effect.Effect<Option.Option<ApiKey>, Unavailable>
  /** The owner's keys, revoked ones included, newest first. */
  listByOwner(ownerId: string): Effect.Effect<ReadonlyArray<ApiKey>, Unavailable>
  /** Revokes one of the owner's keys; true when it was there and not yet revoked. */
  revoke(ownerId: string, id: string, at: Date, record?: CredentialRecord): Effect.Effect<boolean, Unavailable>
  /** Sets lastUsedAt to `at` unless it is already at or after `unlessSince`. */
  touch(id: string, at: Date, unlessSince: Date): Effect.Effect<void, Unavailable>
}>()("pckgate/ports/ApiKeyStore") {}
