// The typed results games report (hints, analyses, solve reports, training
// curves; docs/JSON.md), rendered without knowing the game: values and grades
// with their remoteness (a bound says "at most"), and a game's own facts as
// titled sections of labelled values formatted by their kind.
//
// Results of an older server (before the typed shape) are read too where the
// shape says what a value is (a bare number remoteness is exact); an untyped
// `extra` object is not guessed into sentences.

import { h, formatNumber } from './ui.js';
import { partsWords, count } from './words.js';

/// A remoteness as {plies, bound}: `{kind: 'exact'|'at_most'|'unknown', plies}`, a
/// bare number (exact), or null.
export function remotenessOf(r) {
  if (r === null || r === undefined) return null;
  if (typeof r === 'number') return { plies: r, bound: false };
  if (typeof r === 'object' && typeof r.plies === 'number') return { plies: r.plies, bound: r.kind === 'at_most' };
  return null;
}

const plural = (n) => (n === 1 ? 'ply' : 'plies');

/// "in 11 plies", "in at most 78 plies", or '' when unknown.
export function remotenessWords(r) {
  const x = remotenessOf(r);
  if (!x) return '';
  return x.bound ? `in at most ${x.plies} ${plural(x.plies)}` : `in ${x.plies} ${plural(x.plies)}`;
}

/// A move's grade in any shape: the typed `grade` ({kind: solved|win_chance|points|
/// ungraded}) or the older `value`/`remoteness` fields. Returns {value, remoteness,
/// chance, points} with only what is known.
export function gradeOf(m) {
  const g = m?.grade;
  if (g && typeof g === 'object') {
    if (g.kind === 'solved') return { value: g.value, remoteness: g.remoteness ?? null };
    if (g.kind === 'win_chance') return { chance: g.chance, exact: g.exact === true };
    if (g.kind === 'points') return { points: g.points };
    if (g.kind === 'plan') return { plan: g.moves_left };
    if (g.kind === 'bounded') return { atLeast: g.at_least, atMost: g.at_most };
    return {};
  }
  if (m?.value) return { value: m.value, remoteness: m.remoteness ?? null };
  if (typeof m?.win_probability === 'number') return { chance: m.win_probability };
  if (typeof m?.points === 'number') return { points: m.points };
  return {};
}

/// The badge text and words of a grade: {text: 'W11' | 'W≤78' | 'D' | '53%' | '+9',
/// kind: win|draw|loss|chance|points, words}. Null when the move is ungraded.
export function gradeBadge(m) {
  const g = gradeOf(m);
  if (g.value) {
    const r = remotenessOf(g.remoteness);
    const letter = { win: 'W', draw: 'D', loss: 'L' }[g.value] || '?';
    const text = g.value === 'draw' ? 'D' : `${letter}${r ? `${r.bound ? '≤' : ''}${r.plies}` : ''}`;
    const when = remotenessWords(g.remoteness);
    const words = g.value === 'draw' ? 'draws with best play' : `${g.value === 'win' ? 'wins' : 'loses'}${when ? ` ${when}` : ''}`;
    return { text, kind: g.value, words };
  }
  if (typeof g.chance === 'number') {
    // An exact chance (under best play) to a tenth of a percent; a look-ahead's
    // estimate rounded, and said to be one.
    return g.exact
      ? { text: percent(g.chance, 1), kind: 'chance', words: `${percent(g.chance, 1)} chance to win with best play` }
      : { text: percent(g.chance, 0), kind: 'chance', words: `about ${percent(g.chance, 0)} chance to win (the look-ahead's estimate)` };
  }
  if (g.atLeast && g.atMost) {
    // A search out of time proved only bounds: "≥D" is at least a draw.
    const letter = { win: 'W', draw: 'D', loss: 'L' };
    const article = { win: 'a win', draw: 'a draw', loss: 'a loss' };
    if (g.atLeast === g.atMost) {
      return { text: `${letter[g.atLeast] || '?'}?`, kind: g.atLeast, words: `${article[g.atLeast]} (how soon was not worked out in time)` };
    }
    return g.atMost === 'win'
      ? { text: `≥${letter[g.atLeast] || '?'}`, kind: 'bound', words: `at least ${article[g.atLeast]} (all that was proven in time)` }
      : { text: `≤${letter[g.atMost] || '?'}`, kind: 'bound', words: `at most ${article[g.atMost]} (all that was proven in time)` };
  }
  if (typeof g.plan === 'number') {
    return { text: `${g.plan}`, kind: 'plan', words: `part of a solution finishing in ${count(g.plan, 'move')}` };
  }
  if (typeof g.points === 'number') {
    return { text: `+${formatNumber(g.points)}`, kind: 'points', words: `scores ${count(g.points, 'point')}` };
  }
  return null;
}

/// The analysis inside a hint (typed: `analysis`), or the hint itself (older shape).
export function analysisOf(data) {
  return data?.analysis && typeof data.analysis === 'object' ? data.analysis : data || {};
}

/// The value of the position for the side to move `seat` (a name), as a sentence.
export function positionSentence(data, seat) {
  const a = analysisOf(data);
  const v = a.value;
  if (v && typeof v === 'object') {
    if (v.kind === 'solved') return solvedSentence(v.value, v.remoteness, seat);
    if (v.kind === 'win_chances' && Array.isArray(v.chances)) {
      const parts = v.chances.map((c) => `${c.seat} ${percent(c.chance, 1)}`);
      return `Chances to win with best play: ${parts.join(', ')}.`;
    }
    if (v.kind === 'score') {
      return `Score ${formatNumber(v.points ?? 0)}${typeof v.best_known === 'number' ? `; the best known total from here is ${formatNumber(v.best_known)}` : ''}.`;
    }
    return '';
  }
  if (typeof v === 'string') return solvedSentence(v, a.remoteness, seat);
  return '';
}

function solvedSentence(value, remoteness, seat) {
  const when = value === 'draw' ? '' : remotenessWords(remoteness);
  const tail = when ? ` ${when}` : '';
  if (value === 'win') return `With best play ${seat}, to move, wins${tail}.`;
  if (value === 'loss') return `With best play ${seat}, to move, loses${tail}.`;
  if (value === 'draw') return 'With best play the game is a draw.';
  return '';
}

/// A share 0..1 as a percentage.
export function percent(p, digits = 1) {
  return `${(100 * p).toFixed(digits).replace(/\.0+$/, '')}%`;
}

function duration(s) {
  if (s < 0.01) return 'under a hundredth of a second';
  if (s < 60) return `${s.toFixed(2)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - 60 * m)} s`;
}

function bytes(n) {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  return i === 0 ? `${n} bytes` : `${v.toFixed(1)} ${units[i]}`;
}

/// A fact's value ({kind, value}) as text, or as an element for grids and tables.
export function factValue(v) {
  if (!v || typeof v !== 'object') return String(v ?? '');
  const x = v.value;
  switch (v.kind) {
    case 'text': return String(x ?? '');
    case 'integer': return formatNumber(x);
    case 'number': return Number.isInteger(x) ? formatNumber(x) : Number(x).toFixed(2);
    case 'percent': return percent(x, 1);
    case 'seconds': return duration(x);
    case 'bytes': return bytes(x);
    case 'flag': return x ? 'yes' : 'no';
    case 'list': return (x || []).join(', ');
    case 'phrases': return (x || []).map(partsWords).join(', ');
    case 'grid': return gridTable(x || []);
    case 'table': return wordsTable(x || {});
    default: return typeof x === 'object' ? '' : String(x ?? '');
  }
}

/// Rows of numbers as a small table, rows and columns numbered from 1, zeros as dots.
export function gridTable(rows) {
  const width = Math.max(0, ...rows.map((r) => r.length));
  return h('table.table.fact-grid',
    h('thead', h('tr', h('th', ''), ...Array.from({ length: width }, (_, j) => h('th.num', String(j + 1))))),
    h('tbody', ...rows.map((r, i) => h('tr', h('th', String(i + 1)), ...r.map((n) => h('td.num', n === 0 ? '·' : String(n)))))));
}

function wordsTable(t) {
  return h('table.table.fact-table',
    h('thead', h('tr', ...(t.columns || []).map((c) => h('th', c)))),
    h('tbody', ...(t.rows || []).map((r) => h('tr', ...r.map((c) => h('td', c))))));
}

/// The sections of a result (typed: `sections`, in the analysis of a hint too).
export function sectionsOf(data) {
  const own = Array.isArray(data?.sections) ? data.sections : [];
  const inner = Array.isArray(data?.analysis?.sections) ? data.analysis.sections : [];
  return [...own, ...inner];
}

/// Sections as blocks of a card: a title, its note and its facts; grids and tables
/// as tables. `skip(fact)` leaves facts out (a grid already drawn on the board);
/// a section titled as the card (`card`) shows no title of its own.
export function sectionCards(sections, { skip = () => false, card = null } = {}) {
  return sections.map((s) => {
    const facts = (s.facts || []).filter((f) => !skip(f));
    if (!facts.length && !s.note) return null;
    return h('div.result-section',
      s.title && s.title.toLowerCase() !== String(card).toLowerCase() ? h('h3', s.title) : null,
      s.note ? h('p.small', s.note) : null,
      facts.length ? h('dl.facts', ...facts.flatMap((f) => {
        const v = factValue(f.value);
        return [h('dt', f.label), h('dd', v)];
      })) : null);
  });
}

/// The facts of a result in plain words: its typed sections, as declared (no
/// field of an untyped object is guessed into a sentence).
export function resultFacts(data, options = {}) {
  const sections = sectionsOf(data);
  return sections.length ? sectionCards(sections, options) : [];
}

/// A puzzle's press counts: the typed solution's grid, a grid fact in the
/// sections, or an array of whole numbers in the older `extra`.
export function solutionGrid(data) {
  const solution = data?.solution ?? data?.analysis?.solution;
  if (solution?.kind === 'presses' && Array.isArray(solution.grid)) return solution.grid;
  for (const s of sectionsOf(data)) {
    for (const f of s.facts || []) if (f.value?.kind === 'grid') return f.value.value;
  }
  const extra = data?.extra || {};
  for (const c of [extra.presses, extra.solution?.presses, extra.solution, extra.x, extra.press_counts]) {
    if (Array.isArray(c)) return c;
  }
  return null;
}

/// The suggested move of a hint: typed `best`, else the older `extra.hint`, else the
/// first move graded best (highest chance) by the analysis.
export function bestOf(data) {
  if (data?.best?.move) return { move: data.best.move, cells: data.best.cells || null, reason: data.reason || '' };
  const extra = data?.extra || {};
  if (typeof extra.hint === 'string') return { move: extra.hint, cells: null, reason: '' };
  return null;
}

/// Points for a group of `n` under a declared rule (`square_less_two`: (n-2)², `count`: n).
export function groupPoints(rule, n) {
  if (rule === 'square_less_two') return Math.max(0, (n - 2) ** 2);
  if (rule === 'count') return n;
  return null;
}

/// The line of a solve report: its typed `solution` ({kind: 'line', moves, score,
/// cleared}), or the fields of the older untyped report.
export function lineOf(result) {
  const s = result?.solution;
  if (s && s.kind === 'line') return { moves: s.moves || [], score: s.score ?? 0, cleared: !!s.cleared };
  return { moves: result?.moves || [], score: result?.score ?? 0, cleared: !!result?.cleared };
}

/// The status line in a player's words, from a MatchView: {text, kind} with kind
/// `won`, `lost`, `over`, `your-move` or ''. A finished game says "You won" or
/// "You lost" to the one person playing, names the winning side ("White wins")
/// when two people (or none) play, and says "Draw" with the reason; a watched game that is paused
/// says so instead of "… is thinking".
/// Everything is said from the view's typed `ending` (who won, who resigned, the
/// draw's reason), never read out of the result line.
/// `seatName(i)` names a seat; `paused`: watching, and paused.
export function statusWords(mv, { puzzle = false, seatName, paused = false }) {
  // A finished game speaks to whoever played it then (`ended_by_people`): after a
  // watched game, taking a side does not make its end "You lost".
  const humans = mv.outcome && mv.ended_by_people ? mv.ended_by_people : (mv.seats || []).map((s) => s.human);
  const people = humans.filter(Boolean).length;
  if (mv.outcome) {
    const score = typeof mv.score === 'number' ? ` — score ${formatNumber(mv.score)}` : '';
    const e = mv.ending || { kind: 'over' };
    if (puzzle && e.kind === 'out_of_moves') return { text: `Game over: unsolved after ${count(e.plies, 'move')}, the most one game allows${score}`, kind: 'over' };
    if (puzzle) return { text: `${e.kind === 'solved' ? 'Solved' : 'Game over'}${score}`, kind: e.kind === 'solved' ? 'won' : 'over' };
    switch (e.kind) {
      case 'claimed': return { text: `${seatName(e.seat)} says they win (the testers' 'win' command)`, kind: 'over' };
      case 'won':
      case 'resigned': {
        const winner = e.kind === 'won' ? e.seat : e.winner;
        const resigned = e.kind === 'resigned' ? e.seat : null;
        if (people === 1) {
          const you = humans.indexOf(true);
          if (winner === you) return { text: `You won${resigned !== null ? `: ${seatName(resigned)} resigns` : ''}`, kind: 'won' };
          return { text: `You lost${resigned === you ? ': you resigned' : `: ${seatName(winner)} wins`}`, kind: 'lost' };
        }
        return { text: resigned !== null ? `${seatName(winner)} wins: ${seatName(resigned)} resigns` : `${seatName(winner)} wins`, kind: 'over' };
      }
      case 'all_resigned': {
        const first = e.first;
        const two = (mv.seats || []).length === 2 && typeof first === 'number';
        return { text: two ? `Draw: ${seatName(first)} resigns, then ${seatName(1 - first)} too: every player resigned, so the Cat wins` : 'Draw: every player resigned, so the Cat wins', kind: 'over' };
      }
      case 'drawn': return { text: `Draw${e.reason ? `: ${e.reason}` : ''}`, kind: 'over' };
      case 'cut_off': return { text: `Cut off after ${count(e.plies, 'move')} without an end (the most one game may last): no result`, kind: 'over' };
      default: return { text: 'Game over', kind: 'over' };
    }
  }
  const seat = seatName(mv.to_move);
  if (mv.human_to_move) {
    const text = puzzle ? 'Your move' : people > 1 ? `${seat} to move` : `Your move — you are ${seat}`;
    return { text, kind: 'your-move' };
  }
  if (mv.turn?.kind === 'chance') return { text: 'Rolling the die…', kind: '' };
  if (puzzle) return { text: 'The computer is playing its line: Stop gives the board back to you.', kind: '' };
  if (paused) return { text: `Paused: ${seat} to move. Press Play to go on, or One move.`, kind: '' };
  return { text: `${seat} is thinking…`, kind: '' };
}
