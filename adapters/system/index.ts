// The production implementations of the small ports (`pckgate/system`): the system clock, random ids and native
// SHA-256.
export { layerNodeSha256Hasher } from "./NodeSha256Hasher.ts"
export { layerRandomIds, randomId } from "./RandomIds.ts"
export { layerSystemClock } from "./SystemClock.ts"
export { layerNodeSecretRandom } from "./NodeSecretRandom.ts"
