// The setting a project-settings key stands for. A key with a dot is a feature override of the setting named by
// the part before its first dot, wherever the dot is: ProjectSettings::_set splits the whole key on `.`, takes
// `s[0]` as the overridden setting and each later part as a feature (core/project_settings.cpp:199-216 of 3.5,
// core/config/project_settings.cpp:308-324 of 4.x), so `rendering/environment/default_environment.64.hdr/v2`
// overrides `rendering/environment/default_environment` on every 64-bit build. Whether a feature applies depends
// on the player's machine and on the pack's custom features, so every override is judged as its setting.

/** The setting a key sets where its features apply: the key up to its first dot. */
export const settingBase = (key: string): string => {
  const dot = key.indexOf(".")
  return dot < 0 ? key : key.slice(0, dot)
}
