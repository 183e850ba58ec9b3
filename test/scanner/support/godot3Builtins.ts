// The @GDScript functions of the 3.x class reference the committed tables come from (3.5) that Godot 3.2.3 does not
// have: there the name is no built-in function token, so a script may define it and a bare call runs the script's
// method (a hundred-and-twenty-first red team's `func deep_equal(a, b): return a` before `OS.call(deep_equal("execute",
// 0), …)`, run by godot3-server). Checked against godot3-server 3.2.3: `var <name> = 1` parses for these names only,
// every other @GDScript name of the reference being refused as a built-in token.
export const ADDED_AFTER_3_2_3: ReadonlySet<string> = new Set(["deep_equal"])
