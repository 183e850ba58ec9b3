// The verdict on each candidate of the data-table pass (dataDispatchCandidates.ts): can data passed there make
// the engine call a method by name, set a property by name, instantiate a class, load a path or evaluate an
// expression, and where the scanner judges it. The first rule whose pattern matches `Class.member` wins; an API
// of the dispatch table (engine-dispatch.json) or of the policy's dispatchers is judged there.
import table from "../../../adapters/scanner/gdscript/engine-dispatch.json" with { type: "json" }
import { defaultPolicy } from "../../../adapters/scanner/policy/defaultPolicy.ts"

export interface Verdict {
  readonly text: string
}

const DISPATCH: ReadonlySet<string> = new Set(Object.values(table).flat().map((e) => `${e.class}.${e.method}`))
const DISPATCHERS: ReadonlySet<string> = new Set(defaultPolicy.dispatchers.map((d) => d.function))

const CALLABLE = "no: a Callable's method was named where the Callable was made (`Callable(o, name)`, `Callable.create`, `o.method`, all judged there); the call passes it no name"
const PLAIN = "no: plain data the engine stores, compares, converts or hands back; it calls, sets, loads and builds nothing by a name in it"
const VIRTUAL = "no: a virtual method the pack's script implements (reviewed code); the engine hands it the data"
const ENCODES = "no: encodes a value; the reverse (objects decoded from bytes or text) is judged: get-var-objects, decode-var-objects, base64-to-variant-objects, object-deserialization"
const WRITING_SYSTEM = "no: `script` is a writing system (Latn, Cyrl, …), not code"
const SHADER = "no: shader code, compiled for the GPU; it calls no engine method"
const EDITOR = "no: read by the editor or the importer, not by an exported game"
const VISUAL_SCRIPT = "judged: every VisualScript class is a visual-script error in code and data"
const ARGUMENTS = "judged: the arguments of a call whose method or signal is named elsewhere (the dispatch table, a connection), judged with that call"

/** [pattern on `Class.member`, verdict], first match wins. */
const RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^AnimationNodeStateMachineTransition\.advance_expression$/, "yes (Godot 4): an Expression the AnimationTree evaluates on its base node with every call allowed; judged as that node's method (advance_expression), in text and binary resources and in code"],
  [/^Node\.(set_deferred_thread_group|set_thread_safe)$/, "yes (Godot 4): `set(property, value)` on the receiver; now in the dispatch table (receiver property writes)"],
  [/^Expression\.(execute|parse)$/, "yes: evaluates text as code; every use of Expression is an expression error"],
  [/^Script\.source_code$/, "yes: replaces reviewed code; script-source-code"],
  [/^Object\.set_script$/, "yes: attaches a script; set_script is judged like load (runtime-code-loading) and as a dispatch target"],
  [/^PackedScene\._bundled$/, "yes: a scene built from data (names, conns, variants); packed-scene-bundle"],
  [/^JSONRPC\.process_action$/, "yes: calls the method the request names; in the dispatch table (dynamic-dispatch on any object)"],
  [/^VisualScript/, VISUAL_SCRIPT],
  [/^(JavaScript|JavaScriptBridge)\./, "judged: JavaScript and JavaScriptBridge are javascript-bridge errors wherever named"],
  [/^(GDScript|VoyScript)\.new$/, "judged: GDScript.new is a gdscript-new error; the arguments go to the new script's _init"],
  [/^(NativeScript|PluginScript|CSharpScript)\.new$/, "judged: NativeScript and PluginScript are native-extension-loading errors; a C# script is not GDScript (gdscript-only); the arguments go to _init"],
  [/^OS\.execute$/, "judged: OS.execute is a banned method (process); the array only receives output"],
  [/^(@GDScript\.inst2dict|@VoyScript\.inst_to_dict)$/, "no: reads an object into a dictionary; the reverse, dict2inst/dict_to_inst, is judged (runtime-code-loading)"],
  [/^@GDScript\.yield$/, "no: waits for the signal the string names on the object; calls nothing"],
  [/^(@GDScript\.(lerp|printraw)|@GlobalScope\.(clamp|type_convert)|@VoyScript\.is_instance_of)$/, PLAIN],
  [/^(Array|Dictionary)\.(Array|Dictionary)$/, "no: types a container's elements with a class or script (checked on insertion, never instanced)"],
  [/^(Array|Dictionary)\./, PLAIN],
  [/^Callable\.(bind|bindv|call|call_deferred|callv|rpc|rpc_id)$/, ARGUMENTS],
  [/^(Object\.emit_signal|Signal\.emit|FuncRef\.call_funcv|ClassDB\.class_call_static)$/, ARGUMENTS],
  [/^Signal\.(Signal|connect|disconnect|is_connected)$/, "no: names a signal of the object; what its emission calls was connected elsewhere (judged at the connection)"],
  [/^Object\.(add_user_signal|get_meta|set_meta)$/, PLAIN],
  [/^Object\.(disconnect|is_connected)$/, "no: asks about or removes a connection; calls nothing"],
  [/^Object\._/, VIRTUAL],
  [/^(File|FileAccess|PacketPeer|StreamPeer)\.(store_var|put_var)$|^Marshalls\.variant_to_base64$/, ENCODES],
  [/^PackedDataContainer\.pack$/, "no: packs plain data; objects are refused"],
  [/^(Font|FontFile|TextServer|TextServerExtension|TranslationServer)\.|^OS\.get_system_font_path_for_text$|^ResourceImporterDynamicFont\./, WRITING_SYSTEM],
  [/^(VisualShaderNode\w*|RDShaderSource)\./, SHADER],
  [/^(ResourceImporter\w*|ProjectSettings\.editor\/.*)$/, EDITOR],
  [/^ResourceImporterScene\./, EDITOR],
  [/^(GLTFObjectModelProperty\.(gltf_to_\w+_expression|\w+_to_gltf_expression))$/, "judged: an Expression object a script built (expression error where Expression is named)"],
  [/^GLTFObjectModelProperty\.(node_paths|json_pointers)$/, "no: the property paths the glTF importer animates, written by a script (reviewed) with values from the file's accessors (numbers and vectors, never a script or source)"],
  [/^GLTF\w*\./, "no: glTF data an extension script (reviewed code) reads or stores; the engine calls nothing by a name in it"],
  [/^(MultiplayerAPIExtension|OpenXRExtensionWrapperExtension|ResourceFormatLoader|CodeEdit|CollisionObject(?:2D)?|GraphEdit|Control|TileMapLayer)\._/, VIRTUAL],
  [/^MultiplayerAPI\.object_configuration_(add|remove)$/, "yes (Godot 4): the configuration is a MultiplayerSynchronizer, whose SceneReplicationConfig names property paths it writes with a remote peer's values (set_indexed); the paths are judged as property writes in text and binary resources"],
  [/^(RichTextLabel\.(append_bbcode|append_text|bbcode_text|parse_bbcode))$/, "judged: BBCode tags load the paths they name (the BBCode rules); `[url]` only hands its text to the meta_clicked signal"],
  [/^RichTextLabel\.update_image$/, PLAIN],
  [/^RichTextLabel\.install_effect$/, "no: a RichTextEffect object (its script is the pack's, reviewed); tags call its _process_custom_fx"],
  [/^Resource\.resource_path$/, "no: re-keys the resource cache for an object the script already has (loads nothing)"],
  [/^Resource\./, PLAIN],
  [/^DirAccess\.create_link$/, "judged: creates a file; the file-writes table (filesystem-outside-sandbox) judges its paths"],
  [/^PCKPacker\.add_file$/, "judged: copies a file into a pack the game writes (pck_start's path is a file write); loads nothing"],
  [/^Tween\.(remove|reset|resume|stop)$/, "no: finds the tweens of that object and key; calls nothing"],
  [/^Node\.rpc_config$/, "no: the RPC mode of the method the first argument names; calls nothing"],
  [/^SceneTree\.queue_delete$/, "no: frees the object; calls nothing by name"],
  [/^Script\.instance_has$/, "no: asks whether an object is an instance of the script"],
  [/^JSONRPC\.make_(request|notification)$/, "no: builds a request dictionary; calls nothing"],
  [/^ProjectSettings\.add_property_info$/, "no: describes a setting to the editor"],
  [/^(ProjectSettings\.(get_setting|set_initial_value)|ConfigFile\.get_value)$/, PLAIN],
  [/^(Control\.(can_drop_data|drop_data|force_drag))$/, "no: drag data handed to the pack's own _drop_data (reviewed code)"],
  [/^AudioStreamWAV\.load_from_(buffer|file)$/, "no: reads audio samples; the options are import flags"],
  [/^(DisplayServer|NativeMenu)\./, "no: a callback Callable (named where made) or a menu item's tag handed back to it"],
  [/^OS\.global_menu_add_item$/, "no: an id and metadata handed back to the menu's signal"],
]

/** Parameters of these types hold a Callable and nothing else. */
const ONLY_CALLABLES = /^(?:\w+: Callable(?:, |$))+$/

export const verdictOf = (api: string, data: string): Verdict | undefined => {
  const dot = api.indexOf(".")
  const member = api.slice(dot + 1)
  for (const [pattern, text] of RULES) if (pattern.test(api)) return { text }
  if (DISPATCH.has(api) || (api.startsWith("Object.") && DISPATCHERS.has(member))) return { text: "judged: in the dispatch table (the name and target it takes; the data here are the call's arguments)" }
  if (ONLY_CALLABLES.test(data)) return { text: CALLABLE }
  if (/Callable/.test(data) && !/Dictionary|Object|Array/.test(data)) return { text: `${CALLABLE}; the other data are plain` }
  return PLAIN_APIS.test(api) ? { text: PLAIN } : undefined
}

/** Candidates whose data are plain: values, RIDs, exclusion lists, geometry, results handed back. */
const PLAIN_APIS = /^(Physics\w*|PhysicsServer\w*|Physics2DServer|Navigation\w*|RenderingDevice|RenderingServer|ShapeCast[23]D|Polygon2D|SpriteFrames|TileMap|TileMapLayer|Time|Transform2?D?|Theme|XRPositionalTracker|String|StringName|WebRTCPeerConnection|ResourceLoader|SceneTreeTween|Tween|TextEdit|WorkerThreadPool|MultiplayerSpawner|SceneMultiplayer|PropertyTweener|TreeItem)\./
