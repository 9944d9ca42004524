// Per-game settings: seat colours, legend on/off, the computer's player, which
// seat the user plays, undo depth. Stored by the server (PUT /api/settings/{game})
// and mirrored in localStorage so the home page can colour its thumbnails
// without a request and a page still opens if the server refuses a key.

import * as API from './api.js';
import { HUMAN } from './players.js';

const local = (game) => `tabula.settings.${game}`;

/// Default colour of each seat: the one the game declares for it (its
/// presentation's `seat_colours`, complete for every seat).
export function seatDefaults(info) {
  return (info?.seats || []).map((_, i) => info?.presentation?.seat_colours?.[i]?.css || '#888888');
}

export function defaults(info) {
  return { colours: seatDefaults(info), legend: true };
}

function readLocal(game) {
  try {
    return JSON.parse(localStorage.getItem(local(game)) || '{}') || {};
  } catch {
    return {};
  }
}

function writeLocal(game, settings) {
  try {
    localStorage.setItem(local(game), JSON.stringify(settings));
  } catch {
    /* storage unavailable */
  }
}

/// The seat colours a person chose for `game` in this browser (by seat; a seat
/// left out is drawn in the colour its view declares).
export function loadSeatColours(game) {
  const s = readLocal(game);
  const colours = [];
  (s.colours || []).forEach((c, i) => {
    if (typeof c === 'string' && /^#[0-9a-f]{6}$/i.test(c)) colours[i] = c;
  });
  return colours;
}

/// A player as the server's settings answer it, by kind and level (`{kind, level}`),
/// or null: a player saved by a name that a kind and a level cannot say is not
/// offered on this page, so it is left for the game's usual computer.
function chosen(p) {
  if (!p || typeof p !== 'object' || typeof p.kind !== 'string') return null;
  return typeof p.level === 'number' ? { kind: p.kind, level: p.level } : { kind: p.kind };
}

/// The server's form (docs/API.md settings: colours by seat name, a player per
/// seat by kind and level) read into the page's form: `human_seat` and the
/// `computer` the other seats get.
function fromServer(raw, seats) {
  const out = {};
  if (!raw || typeof raw !== 'object') return out;
  if (raw.colours && typeof raw.colours === 'object' && !Array.isArray(raw.colours)) {
    const colours = [];
    seats.forEach((name, i) => {
      const c = raw.colours[name];
      if (typeof c === 'string' && /^#[0-9a-f]{6}$/i.test(c)) colours[i] = c;
    });
    if (colours.length) out.colours = colours;
  }
  if (typeof raw.legend === 'boolean') out.legend = raw.legend;
  if (typeof raw.undo_depth === 'number' || raw.undo_depth === null) out.undo_depth = raw.undo_depth;
  if (Array.isArray(raw.players) && raw.players.length === seats.length && seats.length > 1) {
    const players = raw.players.map(chosen);
    const humans = players.map((p, i) => (p?.kind === HUMAN ? i : -1)).filter((i) => i >= 0);
    out.human_seat = humans.length === seats.length ? -1 : humans.length === 1 ? humans[0] : 0;
    const computer = players.find((p) => p && p.kind !== HUMAN);
    if (computer) out.computer = computer;
  }
  return out;
}

function toServer(settings, seats) {
  const body = {};
  if (Array.isArray(settings.colours)) {
    body.colours = {};
    seats.forEach((name, i) => {
      if (settings.colours[i]) body.colours[name.slice(0, 32)] = settings.colours[i];
    });
  }
  if (typeof settings.legend === 'boolean') body.legend = settings.legend;
  if (typeof settings.undo_depth === 'number' || settings.undo_depth === null) body.undo_depth = settings.undo_depth;
  if (seats.length > 1 && settings.computer) {
    const seat = typeof settings.human_seat === 'number' ? settings.human_seat : 0;
    // Each seat's player as the server declares a seat's: its kind, and its level
    // where it has one.
    body.players = seats.map((_, i) => (seat === -1 || i === seat ? { kind: HUMAN } : settings.computer));
  }
  return body;
}

/// The settings for a game (`info`: its GameInfo): defaults, then what this
/// browser stored, then the server's.
export async function loadSettings(info) {
  const game = info.name;
  const seats = info.seats;
  const merged = { ...defaults(info), ...readLocal(game) };
  // This browser's settings from before players were kept by kind and level: a
  // player's name (`ai`) is not read, and its level beside it is not needed.
  delete merged.ai;
  delete merged.ai_level;
  if (!chosen(merged.computer)) delete merged.computer;
  try {
    Object.assign(merged, fromServer(await API.getSettings(game), seats));
  } catch {
    /* no settings store reachable: local values stand */
  }
  const colours = seatDefaults(info);
  (merged.colours || []).forEach((c, i) => {
    if (typeof c === 'string' && /^#[0-9a-f]{6}$/i.test(c)) colours[i] = c;
  });
  merged.colours = colours;
  writeLocal(game, merged);
  return merged;
}

/// Stores the settings; errors are thrown for the caller to show.
export async function saveSettings(game, seats, settings) {
  writeLocal(game, settings);
  return API.putSettings(game, toServer(settings, seats));
}
