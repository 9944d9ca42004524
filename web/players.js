// The Players card: which side you play, the computer player and its level
// slider with the 2006 blog's presets, and watching the computer play itself.
// Methods of the game page (mixed into GamePage).

import * as API from './api.js';
import { h, toast, guarded, sleep, reducedMotion, formatNumber, fill } from './ui.js';
import { playerWords, cap } from './words.js';

/// The API's kinds (docs/API.md) of a person, the level-mixed computer and
/// perfect play. The page holds a player as the server declares a seat's:
/// `{kind, level}` (`level` 0 to 100 for a level-mixed computer, else null), and
/// sends it so; it never writes or reads a player's name (`level:66`). Their
/// words, help and presets come from the game list (`players`, `level_presets`).
export const HUMAN = 'human';
const LEVEL = 'level';
const PERFECT = 'perfect';
/// A person, as the page sends a seat's player.
export const PERSON = Object.freeze({ kind: HUMAN });
/// How close the slider must be to a preset for the preset to show as chosen (the 2006 blog's EPSILON).
export const EPSILON = 3;
/// Pause between plies when watching the computer play itself, per speed.
export const WATCH_SPEEDS = { slow: 1400, normal: 650, fast: 200 };
/// A player `{kind, level}` as the page keeps and sends it (`level` only where it is a number).
export const choice = (kind, level = null) => (typeof level === 'number' ? { kind, level } : { kind });
/// Whether seat `seat` (a MatchView seat) is played by `player` (`{kind, level}`).
const plays = (seat, player) => !!seat && seat.kind === player.kind && (seat.level ?? null) === (player.level ?? null);

export class PlayerMethods {
  /// The named levels below perfect play (the game list's `level_presets`:
  /// the 2006 blog's off, low, medium and high).
  _levelPresets() {
    return (this.info.level_presets || []).filter((p) => p.name !== PERFECT);
  }

  // ----- players and the AI level -----

  _renderPlayers() {
    if (this.info.puzzle || !this.playersEl) return;
    const mv = this.mv;
    const humans = mv.seats.map((s) => s.human);
    const humanSeat = humans.filter(Boolean).length === 1 ? humans.indexOf(true) : humans.every(Boolean) ? -1 : -2;
    const computer = this._computer();
    const { kind } = computer;

    const seatSelect = h('select', { 'aria-label': 'Which side you play' },
      ...this.info.seats.map((name, i) => h('option', { value: String(i), selected: humanSeat === i }, name)),
      h('option', { value: '-1', selected: humanSeat === -1 }, 'Both sides (two people)'),
      h('option', { value: '-2', selected: humanSeat === -2 }, 'Neither (watch the computer)'));
    seatSelect.addEventListener('change', () => this._setSeats(Number(seatSelect.value)));

    const kinds = (this.info.players || []).filter((p) => p.name !== HUMAN);
    const kindSelect = h('select', { 'aria-label': 'Computer player' },
      ...kinds.map((p) => h('option', { value: p.name, selected: p.name === kind || (kind === PERFECT && p.name === LEVEL && !kinds.some((k) => k.name === PERFECT)), title: cap(p.help) }, playerWords(p))));
    if (kinds.some((p) => p.name === LEVEL) && this._levelPresets().some((p) => p.name === kind)) kindSelect.value = LEVEL;
    kindSelect.addEventListener('change', () => {
      const k = kindSelect.value;
      this.setComputer(k === LEVEL ? choice(LEVEL, computer.level ?? 66) : choice(k));
    });
    const chosen = kinds.find((p) => p.name === kind);
    // A learning machine is described once, on the card that shows it learn
    // (the game's declared learning card), not here too.
    const learnCard = (this.info.presentation?.panels || []).some((p) => p.kind === 'learn');
    const help = chosen?.learns && learnCard ? null : chosen?.help;

    const parts = [
      h('label.field', h('span', 'You play'), seatSelect),
      kinds.length ? h('label.field', h('span', 'Computer'), kindSelect) : null,
    ];
    if (this._kinds().includes(LEVEL)) parts.push(this._levelControl(computer));
    if (help && ![LEVEL, PERFECT].includes(kind)) parts.push(h('p.muted.small', cap(help) + '.'));
    fill(this.playersEl, ...parts);
  }

  /// The computer the card shows, `{kind, level}`: the computer seat's, as the
  /// server declares it, else the page's own choice ([`_computerChoice`]).
  _computer() {
    const seat = this.mv.seats.find((s) => !s.human);
    if (seat) return { kind: seat.kind, level: seat.level ?? null };
    const { kind, level } = this._computerChoice();
    return { kind, level: level ?? null };
  }

  _levelControl({ kind, level }) {
    const perfect = kind === PERFECT;
    const canPerfect = this._kinds().includes(PERFECT);
    const value = perfect ? 100 : level ?? 66;
    const out = h('output.level-value', perfect ? 'Perfect' : String(value));
    const slider = h('input.slider', { type: 'range', min: 0, max: 100, step: 1, value, 'aria-label': 'Computer level, 0 to 100' });
    slider.addEventListener('input', () => (out.textContent = slider.value));
    slider.addEventListener('change', () => this.setComputer(choice(LEVEL, Number(slider.value))));
    const chosen = (p) => !perfect && level !== null && Math.abs(level - p.level) < EPSILON;
    const presets = h('div.presets', { role: 'group', 'aria-label': 'Level presets' },
      ...this._levelPresets().map((p) => h('button.chip', {
        type: 'button', 'aria-pressed': String(chosen(p)), title: `level ${p.level}`,
        onclick: () => this.setComputer(choice(LEVEL, p.level)),
      }, cap(p.name))),
      canPerfect ? h('button.chip', { type: 'button', 'aria-pressed': String(perfect), title: 'never makes a mistake', onclick: () => this.setComputer(choice(PERFECT)) }, 'Perfect') : null);
    const active = kind === LEVEL || perfect || level !== null;
    return h('div.level' + (active ? '' : '.inactive'),
      h('div.level-head', h('span', 'Level'), out),
      slider,
      h('div.scale', h('span', 'random'), h('span', 'strong')),
      presets);
  }

  /// Plays `player` (`{kind, level}`) in every computer seat and keeps it as the choice.
  async setComputer(player) {
    this.settings.computer = player;
    this._persist();
    const seats = this.mv.seats.map((s, i) => (s.human ? null : i)).filter((i) => i !== null);
    if (!seats.length) {
      this._renderPlayers();
      return;
    }
    let data;
    for (const seat of seats) {
      data = await guarded(() => API.setPlayer(this.id, seat, player));
      if (!data) break;
    }
    if (data) this.apply(data.view, { animate: true });
    else this._renderPlayers();
  }

  async _setSeats(humanSeat) {
    this.settings.human_seat = humanSeat === -2 ? this.settings.human_seat : humanSeat;
    this._persist();
    const computer = this._computerChoice();
    const wanted = this.info.seats.map((_, i) => (humanSeat === -1 || i === humanSeat ? PERSON : computer));
    // Humans first, so the server never sees a table without the seat about to move settled.
    const order = wanted.map((p, i) => [p, i]).sort((a, b) => (a[0].kind === HUMAN ? -1 : 1) - (b[0].kind === HUMAN ? -1 : 1));
    let data;
    for (const [player, seat] of order) {
      if (plays(this.mv.seats[seat], player)) continue;
      data = await guarded(() => API.setPlayer(this.id, seat, player));
      if (!data) break;
    }
    if (data) this.apply(data.view, { animate: true });
    else this._renderPlayers();
  }

  /// Computer-vs-computer (or a computer to move after a seat change): step with a pause.
  /// No seat is a person's: the page steps the game, one ply at a time.
  _watching() {
    return !!this.mv && !this.info.puzzle && this.mv.seats.every((s) => !s.human);
  }

  /// Computer against computer: one `step` per pause, unless paused. Nothing is
  /// stepped for a person's game (the server answers every move itself), after a
  /// set-up, or on a puzzle the computer is replaying.
  _maybeWatch() {
    clearTimeout(this.watchTimer);
    const mv = this.mv;
    if (!mv || mv.outcome || mv.human_to_move || !this._watching() || this.watchPaused) return;
    this.watchTimer = setTimeout(async () => {
      if (!this.alive || this.busy || this.mv !== mv || this.watchPaused) return;
      this.busy = true;
      let data;
      try {
        data = await API.action(this.id, 'step');
      } catch (e) {
        toast(e.message);
      } finally {
        this.busy = false;
      }
      if (!data || !this.alive || this.mv !== mv) return;
      this.apply(data.view, { animate: true, played: data.played || [], mineCount: 0 });
    }, WATCH_SPEEDS[this.watchSpeed] ?? 650);
  }

  /// The players of a new session, from the settings.
  _playersFor(humanSeat = this._humanSeat()) {
    const seats = this.info.seats.length;
    if (this.info.puzzle || seats === 1) return [PERSON];
    return this.info.seats.map((_, i) => (humanSeat === -1 || i === humanSeat ? PERSON : this._computerChoice()));
  }

  _humanSeat() {
    const s = this.settings.human_seat;
    return typeof s === 'number' && s >= -1 && s < this.info.seats.length ? s : 0;
  }

  _kinds() {
    return (this.info.players || []).map((p) => p.name);
  }

  /// Whether this game offers `player` (`{kind, level}`): its kind is one of the
  /// game list's, a level only with the level-mixed computer or in a two-seat game.
  _supports(player) {
    if (!player || typeof player.kind !== 'string' || player.kind === HUMAN || !this._kinds().includes(player.kind)) return false;
    return typeof player.level !== 'number' || player.kind === LEVEL || this.info.seats.length === 2;
  }

  /// The computer a new game's computer seats get: the page's stored choice, else
  /// the game list's `default_computer` (the server's one rule, the same the
  /// terminal plays: this page never decides), else a random player.
  _computerChoice() {
    if (this._supports(this.settings.computer)) return choice(this.settings.computer.kind, this.settings.computer.level);
    const given = this.info.default_computer;
    if (this._supports(given)) return choice(given.kind, given.level);
    return choice('random');
  }

  /// Watching the computer play itself: pause, one ply, speed.
  _watchControls() {
    this.watchPaused = false;
    this.watchSpeed = 'normal';
    this.pauseBtn = h('button.btn.btn-small', { type: 'button', 'aria-pressed': 'false', onclick: () => this._setPaused(!this.watchPaused) }, 'Pause');
    this.stepBtn = h('button.btn.btn-small', { type: 'button', onclick: () => this._stepOnce() }, 'One move');
    const speed = h('select', { 'aria-label': 'Watching speed' },
      ...Object.keys(WATCH_SPEEDS).map((k) => h('option', { value: k, selected: k === 'normal' }, k)));
    speed.addEventListener('change', () => {
      this.watchSpeed = speed.value;
      this._maybeWatch();
    });
    return h('div.watch-bar', { hidden: true, role: 'group', 'aria-label': 'Watching the computer' },
      h('span.watch-title', 'Watching the computer'), this.pauseBtn, this.stepBtn, h('label.watch-speed', h('span', 'Speed'), speed));
  }

  _setPaused(paused) {
    this.watchPaused = paused;
    this.pauseBtn.textContent = paused ? 'Play' : 'Pause';
    this.pauseBtn.setAttribute('aria-pressed', String(paused));
    // The status line says "paused", never "… is thinking" while nothing moves.
    if (this.mv) this._renderStatus();
    this._maybeWatch();
  }

  async _stepOnce() {
    if (this.busy || !this.mv || this.mv.outcome || this.mv.human_to_move) return;
    this.busy = true;
    try {
      const data = await API.action(this.id, 'step');
      if (this.alive) this.apply(data.view, { animate: true, played: data.played || [], mineCount: 0 });
    } catch (e) {
      toast(e.message);
    } finally {
      this.busy = false;
    }
    this._maybeWatch();
  }

  /// Who plays a seat (`seat`: a MatchView seat, its typed `kind` and `level`), in
  /// words for the legend and the tally.
  _playerWords(seat) {
    const { kind, level: n } = seat;
    if (kind === LEVEL && typeof n === 'number') {
      const preset = this._levelPresets().find((p) => Math.abs(p.level - n) < EPSILON);
      return `computer, level ${n}${preset ? ` (${cap(preset.name)})` : ''}`;
    }
    const player = (this.info.players || []).find((p) => p.name === kind);
    // A learning machine is named as itself, not as "the computer".
    if (player?.learns) return playerWords(player);
    return `computer: ${playerWords(player ?? kind)}`;
  }
}
