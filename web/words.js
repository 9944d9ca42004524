// Plain words for a player: variants, grades, colours, and each game's own
// analysis (`extra` of a hint) turned into sentences instead of raw data.

/// Names of the palette colours (render.js PALETTE), for screen readers and legends.
export const COLOUR_NAMES = ['red-orange', 'blue', 'green', 'amber', 'pink', 'sky blue', 'yellow', 'purple', 'grey', 'brown'];

/// Names of render.js ORIGINAL_PALETTE's colours.
export const ORIGINAL_NAMES = [null, 'red', 'yellow', 'blue'];

/// The name of colour `i`; `original` when the board shows the original colours.
export const colourName = (i, original = false) =>
  (original && ORIGINAL_NAMES[i]) || COLOUR_NAMES[((i % COLOUR_NAMES.length) + COLOUR_NAMES.length) % COLOUR_NAMES.length];

/// A help text from the server read as a player would: the project's sources are
/// "the original", not "the seed".
export function plain(text) {
  return String(text ?? '')
    .replace(/\bthe seed's\b/gi, "the original game's")
    .replace(/\bseed (\d{3})'s\b/gi, "the original game's")
    .replace(/\bthe seed\b/gi, 'the original game')
    .replace(/\^2\b/g, '²')
    // Clauses about the command line ("up to 10000 for `tabula solve`") are not for players.
    .replace(/,\s*[^,;()]*`tabula [^`]*`/g, '')
    .replace(/`([^`]*)`/g, '$1');
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

/// The computer players in a player's words (the API's names are for typing).
const PLAYER_WORDS = {
  random: 'Random moves',
  perfect: 'Perfect play',
  level: 'At a level you choose',
  lookahead: 'One move ahead',
  alphabeta: 'Thinks ahead (alpha-beta search)',
  expectimax: 'Thinks ahead over the dice',
  matchbox: "Gardner's matchbox machine",
  menace: 'MENACE, the matchbox learner',
  scenario: "The original program's rules of thumb",
  best: 'Strongest search (race tables)',
  optimal: 'Perfect play (exact chances)',
  nim: 'The winning Nim strategy',
  search: 'Search ahead (NRPA)',
  solver: 'The fewest-presses solution',
  human: 'A person',
};

/// A player's help without the syntax for typing its options
/// (`alphabeta:depth=8,ms=500`, `(matchbox:symmetry=off)`, `options seconds=S`).
export function playerHelp(text) {
  return plain(text)
    .replace(/\s*\([^()]*(?:=|\boptions?\b)[^()]*\)/g, '')
    .replace(/:\s*[a-z]+:\S*=\S*(?:\s+or\s+[a-z]+:\S*=\S*)*/g, '')
    .replace(/[;,]?\s*\boptions?\b[^.;]*=.*$/, '')
    .replace(/[\s,;:]+$/, '');
}

/// A player kind (`{name, help}`) as a player reads it.
export function playerWords(kind) {
  const name = typeof kind === 'string' ? kind : kind?.name;
  const help = typeof kind === 'object' ? plain(kind.help || '') : '';
  // A game's reconstruction of its source's computer says so first (Northcott's `nim`).
  if (/^the original program's/i.test(help)) return cap(help.split(/[:;(,]/)[0].trim());
  if (PLAYER_WORDS[name]) return PLAYER_WORDS[name];
  // A game's own player: the first clause of its help, else its name.
  const first = help.split(/[:;(]/)[0].trim();
  return cap(first && first.length <= 48 ? first : String(name || '').replace(/[_-]/g, ' '));
}

/// The game's preset (its "Type" menu entry) that `variant` is, or null. Options
/// left out read as their defaults; a board number (`seed`) does not make another
/// kind of game, so a dealt SameGame board is still its preset.
export function presetOf(info, variant = info.variant) {
  const defaults = new Map((info.options || []).map((o) => [o.name, String(o.default)]));
  const full = (text) => {
    const m = new Map(defaults);
    for (const [k, v] of parseVariant(text)) m.set(k, v);
    m.delete('seed');
    return [...m].sort((a, b) => a[0].localeCompare(b[0])).map(([k, v]) => `${k}=${v}`).join(',').toLowerCase();
  };
  const now = full(variant);
  return (info.presets || []).find((p) => full(p.variant) === now) || null;
}

/// A graded move as {text, kind, words}.
export function grade(m) {
  if (!m.value) return null;
  const r = m.remoteness;
  const letter = { win: 'W', draw: 'D', loss: 'L' }[m.value] || '?';
  const text = m.value === 'draw' ? 'D' : `${letter}${r ?? ''}`;
  const plies = r !== undefined && r !== null ? ` in ${r} pl${r === 1 ? 'y' : 'ies'}` : '';
  const words = m.value === 'draw' ? 'draws with best play' : m.value === 'win' ? `wins${plies}` : `loses${plies}`;
  return { text, kind: m.value, words };
}

const pct = (p) => `${Math.round(100 * p)}%`;

function seconds(v) {
  return v < 0.01 ? 'under a hundredth of a second' : `${v.toFixed(2)} s`;
}

/// A game's own analysis as a few sentences (never raw arrays or nulls).
export function extraSentences(game, extra, { cellOfMove } = {}) {
  if (!extra || typeof extra !== 'object') return [];
  const out = [];
  if (game === 'auto120') {
    const exact = extra.exact || {};
    const exactMoves = Array.isArray(exact.moves) ? exact.moves : [];
    for (const b of exactMoves) {
      if (typeof b.win_probability === 'number') out.push(`${cap(b.move)}: exactly ${pct(b.win_probability)} chance to win with perfect play.`);
    }
    if (!exactMoves.length && typeof exact.win_probability === 'number') {
      out.push(`With perfect play from here, the player to roll wins ${pct(exact.win_probability)} of the time.`);
    }
    for (const b of exactMoves.length ? [] : extra.best_moves || []) {
      if (typeof b.win_probability === 'number') out.push(`${cap(b.move)}: about ${pct(b.win_probability)} chance to win with best play.`);
    }
    if (Array.isArray(extra.solo_expected_turns)) {
      const t = extra.solo_expected_turns.map((x) => Math.round(x));
      out.push(`Racing alone, each side would need about ${t.join(' and ')} more turns.`);
    }
    return out;
  }
  if (game === 'poggle') {
    if (extra.solvable === false) out.push('This board cannot be solved.');
    if (extra.hint) out.push(`Press ${pressWords(extra.hint)} next.`);
    if (typeof extra.total_presses === 'number') out.push(`${extra.total_presses} presses in all solve it${extra.fewest ? ' (as few as possible)' : ''}.`);
    if (typeof extra.solutions === 'number' && extra.solutions > 1) out.push(`There are ${extra.solutions} different solutions.`);
    return out;
  }
  if (game === 'samegame') {
    if (typeof extra.blocks_left === 'number') out.push(`${extra.blocks_left} blocks left in ${extra.groups ?? '?'} groups; the largest has ${extra.largest_group ?? '?'} blocks.`);
    if (Array.isArray(extra.colour_counts)) {
      out.push(`Blocks per colour: ${extra.colour_counts.map((n, i) => `${colourName(i)} ${n}`).join(', ')}.`);
    }
    return out;
  }
  // Any other game: each field as "name: value" in words.
  for (const [k, v] of Object.entries(extra)) {
    // Empty values, timings and what the hint's own summary already says are left out.
    if (v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length)) continue;
    if (/seconds|_text$|exact$|^remoteness$|^side_to_move/.test(k)) continue;
    if (k === 'rule' && typeof v === 'string') {
      out.push(cap(v) + '.');
      continue;
    }
    let value;
    if (Array.isArray(v)) value = v.every((x) => typeof x !== 'object') ? v.join(', ') : `${v.length} entries`;
    else if (typeof v === 'object') continue;
    else if (typeof v === 'boolean') value = v ? 'yes' : 'no';
    else if (typeof v === 'number' && !Number.isInteger(v)) value = k.includes('second') ? seconds(v) : v.toFixed(2);
    else value = String(v);
    out.push(`${cap(k.replace(/_/g, ' '))}: ${value}.`);
  }
  void cellOfMove;
  return out;
}

/// "2,3" → "row 2, button 3".
export function pressWords(move) {
  const m = /^(\d+),(\d+)$/.exec(String(move));
  return m ? `row ${m[1]}, button ${m[2]}` : String(move);
}

export function cap(s) {
  s = String(s);
  return s.charAt(0).toUpperCase() + s.slice(1);
}
