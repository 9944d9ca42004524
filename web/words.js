// Plain words for a player: variants, players, colours, counts, a game's glossary.

/// Names of the palette colours (render.js PALETTE), for screen readers and legends.
export const COLOUR_NAMES = ['red-orange', 'blue', 'green', 'amber', 'pink', 'sky blue', 'yellow', 'purple', 'grey', 'brown'];

/// The name of colour `i`; `palette`: the game's declared palette the board shows
/// (its presentation's `palettes`), whose own names come first.
export const colourName = (i, palette = null) =>
  palette?.names?.[i] || COLOUR_NAMES[((i % COLOUR_NAMES.length) + COLOUR_NAMES.length) % COLOUR_NAMES.length];

/// A text from the server as shown: the server writes its texts for players
/// (summaries, help, reasons), so nothing is read out of them or rewritten.
export function plain(text) {
  return String(text ?? '');
}

/// `a=1,b=2` → [['a','1'], ['b','2']].
export function parseVariant(text) {
  return String(text || '').split(',').map((p) => p.trim()).filter(Boolean).map((p) => {
    const i = p.indexOf('=');
    return i < 0 ? [p, ''] : [p.slice(0, i).trim(), p.slice(i + 1).trim()];
  });
}

export function formatVariant(pairs) {
  return pairs.map(([k, v]) => (v === '' ? k : `${k}=${v}`)).join(',');
}

/// The variant with option `name` set to `value`.
export function withOption(variant, name, value) {
  const pairs = parseVariant(variant).filter(([k]) => k !== name);
  pairs.push([name, String(value)]);
  pairs.sort((a, b) => a[0].localeCompare(b[0]));
  return formatVariant(pairs);
}

/// A variant option's form label, in the server's words
/// (`nocapture` → "Draw after quiet moves"; every game labels its options).
export const optionLabel = (option) => cap(option.label || option.name);

/// A player kind as a player reads it: the words the game list gives it (the
/// game's own words for its players, the generic players' words for the rest);
/// `kind` may be a name, looked up in `info`'s players.
export function playerWords(kind, info = null) {
  const found = typeof kind === 'string' ? (info?.players || []).find((p) => p.name === kind) : kind;
  return found?.words || cap(String(found?.name ?? kind ?? ''));
}

/// `variant` without the options that have their default values: the short form
/// a link or a game ID carries ("seed=9" for SameGame's usual board number 9).
export function shortVariant(info, variant) {
  const defaults = new Map((info.options || []).map((o) => [o.name, String(o.default)]));
  return formatVariant(parseVariant(variant).filter(([k, v]) => !defaults.has(k) || defaults.get(k).toLowerCase() !== String(v).toLowerCase()));
}

/// The game's preset (its "Type" menu entry) that `variant` is, or null. Options
/// left out read as their defaults; the option the game declares a board number
/// does not make another kind of game, so a dealt board is still its preset.
export function presetOf(info, variant = info.variant) {
  const defaults = new Map((info.options || []).map((o) => [o.name, String(o.default)]));
  const boardNumber = info.presentation?.board_number;
  const full = (text) => {
    const m = new Map(defaults);
    for (const [k, v] of parseVariant(text)) m.set(k, v);
    if (boardNumber) m.delete(boardNumber);
    return [...m].sort((a, b) => a[0].localeCompare(b[0])).map(([k, v]) => `${k}=${v}`).join(',').toLowerCase();
  };
  const now = full(variant);
  return (info.presets || []).find((p) => full(p.variant) === now) || null;
}

/// A count with its noun, singular for exactly one: `count(1, 'press', 'presses')`
/// → "1 press", `count(3, 'entry', 'entries')` → "3 entries". The one plural rule
/// of the page (English: only 1 is singular; 0 is plural); the plural defaults to
/// the noun plus "s". Numbers get thousands separators.
export function count(n, one, many = `${one}s`) {
  const value = Number(n);
  const shown = Number.isFinite(value) ? value.toLocaleString('en') : String(n ?? 0);
  return `${shown} ${value === 1 ? one : many}`;
}

/// The game's glossary (its presentation's `glossary`: `{term, words}`) entries
/// for the terms the server marks where they are used: the term parts of typed
/// words (`parts`: lists of `[{text} | {colour} | {term}]`, a log's lines) and a
/// fact's `term` (`facts`). Each once, in the glossary's order; the page never
/// searches text for a term.
export function termsIn(info, { parts = [], facts = [] } = {}) {
  const used = new Set([
    ...parts.flat().map((p) => p?.term),
    ...facts.map((f) => f?.term),
  ].filter((t) => typeof t === 'string'));
  return (info?.presentation?.glossary || []).filter((t) => used.has(t.term));
}

/// How the page names colour `i` of its board (the legend's names, from the palette
/// being shown), set by the game page; null where the board has no colours.
let colourNamer = null;

export function useColourNames(namer) {
  colourNamer = namer;
}

/// Words the server sends with typed parts (`[{text} | {colour} | {term}]`: a
/// move, a log line) as the page says them: each colour by the name the legend
/// gives it, "colour N" where the board has no colours to name; a glossary term
/// as written.
export function partsWords(parts) {
  return (parts || []).map((p) => (p && typeof p.colour === 'number'
    ? colourNamer?.(p.colour) || `colour ${p.colour}`
    : String(p?.term ?? p?.text ?? ''))).join('');
}

/// Who played a logged move (`by`: "X", "Chance"), when its words do not already
/// begin with it (a game's own sentence, "O advances …"); '' in a puzzle.
export const moverOf = (e) => (e?.by && !saidWords(e).startsWith(`${e.by} `) ? e.by : '');

/// A legal move or a log line in the game's words: its typed `parts` where the
/// server sent them, else its `words`, else its notation (the server leaves out
/// words that are the notation itself). Never the terminal's line (`text`, "X: 1"),
/// which repeats the mover the move list shows by its column.
export const saidWords = (m) => (m?.parts?.length ? partsWords(m.parts) : m?.words || m?.move || m?.text || '');

/// One of an option's values as a player reads it in a menu: the words the game
/// gave beside it (`choice_words`, in the order of `choices`: `nobonus` → "no bonus
/// for clearing"); the value itself when the game gave none. Compared without case,
/// as the games read values.
export function choiceWords(option, value) {
  const v = String(value);
  const values = Array.isArray(option?.choices) ? option.choices : [];
  const words = Array.isArray(option?.choice_words) ? option.choice_words : [];
  const i = values.findIndex((c) => String(c).toLowerCase() === v.toLowerCase());
  const w = i >= 0 ? words[i] : undefined;
  return typeof w === 'string' && w.trim() ? w : v;
}

/// A menu item's words marked as the usual choice: inside the closing bracket when
/// the words end in one ("standard (bonus for clearing, usual)"), else after them.
export const usualWords = (words) => (words.endsWith(')') ? `${words.slice(0, -1)}, usual)` : `${words} (usual)`);

export function cap(s) {
  s = String(s);
  return s.charAt(0).toUpperCase() + s.slice(1);
}
