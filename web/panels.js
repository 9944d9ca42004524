// The side panel's cards: colours and undo depth, the legend, the tally, saved
// games, the variant chooser and the share link.
// Methods of the game page (mixed into GamePage).

import * as API from './api.js';
import { shade } from './render.js';
import { h, toast, guarded, formatNumber, fill } from './ui.js';
import { saveSettings, seatDefaults } from './settings.js';
import { plain, colourName, parseVariant, presetOf, optionLabel, cap, count, choiceWords, usualWords } from './words.js';

export class PanelMethods {
  /// A form built from the game's variant options, checked by the server before
  /// a game of it starts (its error is shown here).
  _variantChooser() {
    const fields = new Map();
    const err = h('p.form-error', { role: 'alert', hidden: true });
    const rows = this.info.options.map((o) => {
      // An option that takes only a few values (the game lists them) is a menu;
      // the rest (a size, heaps, a board number) is typed.
      const choices = Array.isArray(o.choices) ? o.choices : [];
      const input = choices.length
        ? h('select', { name: o.name, 'aria-describedby': `opt-help-${o.name}` },
          ...choices.map((c) => {
            // The game's words for the value; the value stays what the form sends.
            const words = choiceWords(o, c);
            return h('option', { value: c }, String(c) === String(o.default) ? usualWords(words) : words);
          }))
        : h('input.text', { type: 'text', name: o.name, placeholder: String(o.default), 'aria-describedby': `opt-help-${o.name}` });
      fields.set(o.name, input);
      return h('label.field.option-field', { 'data-option': o.name },
        h('span', optionLabel(o)),
        input,
        h('small.muted', { id: `opt-help-${o.name}` }, plain(o.help)));
    });
    // The game's presets (Tatham's "Type" menu): one press opens a game of it.
    const presets = (this.info.presets || []).map((p) => h('button.btn.btn-small.preset', {
      type: 'button',
      'data-variant': p.variant,
      onclick: () => this.navigate(`/game/${this.name}?variant=${encodeURIComponent(p.variant)}`),
    }, p.name));
    const presetList = presets.length
      ? h('div.variant-presets', { role: 'group', 'aria-label': 'Ready-made variants' }, ...presets)
      : null;
    const chosenVariant = () => {
      const pairs = [];
      for (const o of this.info.options) {
        const v = fields.get(o.name).value.trim();
        if (v && v !== String(o.default)) pairs.push(`${o.name}=${v}`);
      }
      return pairs.join(',');
    };
    // An option that changes nothing in the variant chosen (the game declares
    // them: `idle_options`, a board number where no start is dealt) is not offered.
    const offerUsed = (info) => {
      const idle = new Set(info?.presentation?.idle_options || []);
      for (const row of rows) row.hidden = idle.has(row.dataset.option);
    };
    let asked = 0;
    const form = h('form.variant-form', {
      onchange: async () => {
        const mine = ++asked;
        try {
          const info = await API.gameInfo(this.name, chosenVariant() || undefined);
          if (mine === asked) offerUsed(info);
        } catch {
          /* a variant the server refuses is said when it is played */
        }
      },
      onsubmit: async (e) => {
        e.preventDefault();
        const variant = chosenVariant();
        err.hidden = true;
        try {
          const info = await API.gameInfo(this.name, variant || undefined);
          this.navigate(`/game/${this.name}${info.variant ? `?variant=${encodeURIComponent(info.variant)}` : ''}`);
        } catch (ex) {
          err.textContent = ex.message;
          err.hidden = false;
        }
      },
    }, presetList, presetList ? h('p.small.strong', 'Or choose each option:') : null, ...rows, err, h('div.actions', h('button.btn', { type: 'submit' }, 'Play this variant'),
      h('button.btn.btn-quiet', { type: 'button', onclick: () => this.navigate(`/game/${this.name}?variant=`) }, 'The usual game')));
    form.sync = () => {
      const current = presetOf(this.info);
      for (const b of presets) b.setAttribute('aria-pressed', String(current !== null && b.dataset.variant === current.variant));
      const now = new Map(parseVariant(this.info.variant));
      for (const o of this.info.options) {
        const field = fields.get(o.name);
        const value = now.get(o.name) ?? String(o.default);
        // A menu shows the value in force even when the game wrote it another way.
        if (field.tagName === 'SELECT' && ![...field.options].some((x) => x.value === value)) field.append(h('option', { value }, choiceWords(o, value)));
        field.value = value;
      }
      offerUsed(this.info);
    };
    return form;
  }

  async _share() {
    const link = await this.shareLink();
    try {
      await navigator.clipboard.writeText(link);
      toast('A link to this game was copied.', 'success', 2500);
    } catch {
      toast(`Link to this game: ${link}`, 'info', 10000);
    }
  }

  _coloursEditor() {
    const rows = this.info.seats.map((seat, i) => {
      const input = h('input', { type: 'color', value: this.settings.colours[i] || '#888888', 'aria-label': `Colour of ${seat}` });
      input.addEventListener('input', () => {
        this.settings.colours[i] = input.value;
        this.board.recolour();
        this._renderLegend();
      });
      input.addEventListener('change', () => this._persist());
      return h('label.colour-row', input, h('span', seat));
    });
    const legendToggle = h('input', { type: 'checkbox', checked: this.settings.legend !== false });
    legendToggle.addEventListener('change', () => {
      this.settings.legend = legendToggle.checked;
      this._renderLegend();
      this._persist();
    });
    const reset = h('button.btn.btn-small.btn-quiet', {
      type: 'button',
      onclick: () => {
        this.settings.colours = seatDefaults(this.info);
        rows.forEach((r, i) => (r.querySelector('input').value = this.settings.colours[i]));
        this.board.recolour();
        this._renderLegend();
        this._persist();
      },
    }, 'Default colours');
    const depths = [['', 'all of them'], ['1', '1'], ['2', '2'], ['5', '5'], ['10', '10'], ['0', 'none']];
    const undo = h('select', { 'aria-label': 'Moves you can take back' },
      ...depths.map(([v, t]) => h('option', { value: v, selected: String(this.settings.undo_depth ?? '') === v }, t)));
    undo.addEventListener('change', () => {
      this.settings.undo_depth = undo.value === '' ? null : Number(undo.value);
      this._persist();
      toast('The new limit applies from the next game.', 'info', 2500);
    });
    return h('div.colours', ...rows, this._paletteChooser(), h('label.toggle', legendToggle, h('span', 'Show the colour legend')), reset,
      h('label.field', h('span', 'Moves you can take back'), undo));
  }

  /// "How to play": the game's rules page, loaded when first opened.
  _aboutCard() {
    const body = h('div.about-body', 'Loading the rules…');
    const details = h('details.about', h('summary', 'Rules and notation'), body);
    let loaded = false;
    details.addEventListener('toggle', () => {
      if (!details.open || loaded) return;
      loaded = true;
      guarded(async () => {
        try {
          // The renderer (about 50 KB) is fetched only when the rules open,
          // not with every game page.
          const [{ markdown }, { marked }] = await Promise.all([
            API.rules(this.name), import('./vendor/marked.esm.js')]);
          // The text is the project's own game page, served by the server.
          body.innerHTML = marked.parse(markdown.replace(/^# .*\n/, ''));
        } catch (e) {
          loaded = false;
          body.textContent = 'The rules could not be loaded. Close and open this again to retry.';
          throw e;
        }
      });
    });
    return details;
  }

  /// The palette chosen among those the game declares (its presentation's
  /// `palettes`, such as a game's original colours), or null for the default
  /// colours that stay apart for colour-blind players. Kept in this browser.
  chosenPalette() {
    const name = localStorage.getItem(`tabula.${this.name}.palette`);
    return (this.info.presentation?.palettes || []).find((p) => p.name === name) || null;
  }

  _paletteChooser() {
    const palettes = this.info.presentation?.palettes || [];
    if (!palettes.length) return null;
    const cell = this.info.presentation?.coloured_cell || 'cell';
    const label = `${cap(cell)} colours`;
    const chosen = this.chosenPalette()?.name ?? 'clear';
    const choices = [['clear', 'Easy to tell apart'], ...palettes.map((p) => [p.name, p.label])];
    const select = h('select', { 'aria-label': label },
      ...choices.map(([v, t]) => h('option', { value: v, selected: chosen === v }, t)));
    select.addEventListener('change', () => {
      localStorage.setItem(`tabula.${this.name}.palette`, select.value);
      this.boardWrap.classList.toggle('dark-palette', !!this.chosenPalette()?.dark_board);
      this.board.recolour();
      this._renderLegend();
    });
    return h('label.field', h('span', label), select);
  }

  _saveForm() {
    const input = h('input.text', { type: 'text', placeholder: 'Name (optional)', maxlength: 60, 'aria-label': 'Name of the saved game' });
    const form = h('form.save-form', {
      onsubmit: async (e) => {
        e.preventDefault();
        const r = await guarded(() => API.save(this.id, input.value.trim() || undefined));
        if (r) {
          input.value = '';
          toast('Game saved.', 'success', 2500);
          this._refreshSaved();
        }
      },
    }, input, h('button.btn', { type: 'submit' }, 'Save'));
    return form;
  }

  async _persist() {
    try {
      await saveSettings(this.name, this.info.seats, this.settings);
    } catch (e) {
      toast(`Settings could not be saved: ${e.message}`);
    }
  }

  _renderLegend() {
    if (!this.mv) return;
    this.legendEl.hidden = this.settings.legend === false;
    const items = [];
    if (!this.info.puzzle) {
      this.mv.seats.forEach((s, i) => {
        const colour = this.settings.colours[i] || '#888';
        const who = s.human ? 'you' : this._playerWords(s);
        items.push(h('li', h('span.swatch.round', { style: `background:${colour};border-color:${shade(colour)}` }), h('span', `${s.name} — ${who}`)));
      });
    }
    const colours = [...new Set((this.shownView().cells || []).map((c) => c.colour).filter((c) => c !== undefined && c !== null))].sort((a, b) => a - b);
    if (colours.length && colours.length <= 12) {
      for (const c of colours) items.push(h('li', h('span.swatch', { style: `background:${this.board.paletteColour(c)}` }), h('span', c === this.info.presentation?.goal_colour ? `${colourName(c, this.chosenPalette())} (the goal)` : colourName(c, this.chosenPalette()))));
    }
    // The marks on the board now, in the game's words for them (its presentation's `marks`).
    const shown = this.shownView();
    const onBoard = new Set((shown.cells || []).map((c) => c.mark).filter(Boolean));
    for (const { mark, words } of this.info.presentation?.marks || []) {
      if (onBoard.has(mark) && mark !== 'button') items.push(h('li', h(`span.swatch.mark-swatch.mark-${mark}`), h('span', words)));
    }
    fill(this.legendEl, h('ul', ...items));
  }

  _renderTally() {
    const t = this.mv.tally || { wins: [], cat: 0, games: 0 };
    const rows = [];
    if (this.info.puzzle) {
      rows.push(h('div.tally-row', h('span', 'Score'), h('strong', formatNumber(this.mv.score ?? 0))));
    } else {
      this.mv.seats.forEach((s, i) => rows.push(h('div.tally-row',
        h('span', h('span.swatch.round', { style: `background:${this.settings.colours[i]}` }), `${s.name} — ${s.human ? 'you' : this._playerWords(s)}`),
        h('strong', String(t.wins?.[i] ?? 0)))));
      rows.push(h('div.tally-row', h('span', 'Cat (draws)'), h('strong', String(t.cat ?? 0))));
    }
    const overall = this.overallTallies;
    fill(this.tallyEl, 
      h('p.muted', this.info.puzzle ? 'This game' : `This match: ${count(t.games ?? 0, 'game')} finished`),
      ...rows,
      overall && overall.length ? h('details.overall',
        h('summary', 'All matches of this game'),
        h('table.table',
          h('thead', h('tr', h('th', 'Players'), h('th', 'Wins'), h('th', 'Cat'), h('th', 'Games'))),
          h('tbody', ...overall.map((r) => h('tr',
            h('td', (r.players || []).join(' vs ')),
            h('td', (r.wins || []).join(' – ')),
            h('td', String(r.cat ?? 0)),
            h('td', String(r.games ?? 0))))))) : null);
  }

  async _refreshTallies() {
    try {
      const list = await API.tallies(this.name);
      this.overallTallies = Array.isArray(list) ? list : list?.tallies;
      if (this.mv) this._renderTally();
    } catch {
      /* tallies are a nicety */
    }
  }

  async _refreshSaved() {
    let list;
    try {
      list = await API.savedList(this.name);
    } catch (e) {
      fill(this.savedEl, h('li.empty-note', `Saved games could not be listed: ${e.message}`));
      return;
    }
    if (!Array.isArray(list)) list = list?.saved || [];
    if (!list.length) {
      fill(this.savedEl, h('li.empty-note', 'No saved games yet.'));
      return;
    }
    fill(this.savedEl, ...list.map((s) => {
      const when = s.saved_at || s.created_at || s.when || s.updated_at;
      const date = when ? new Date(typeof when === 'number' && when < 1e12 ? when * 1000 : when) : null;
      const sub = [s.moves !== undefined ? `${s.moves} moves` : null, date && !isNaN(date) ? date.toLocaleString() : null].filter(Boolean).join(' · ');
      return h('li.saved',
        h('div.saved-text', h('strong', s.name || `Game ${s.id}`), sub ? h('span.muted', sub) : null),
        h('div.saved-actions',
          h('button.btn.btn-small', { type: 'button', onclick: () => this._resume(s.id) }, 'Resume'),
          h('button.btn.btn-small.btn-quiet', {
            type: 'button',
            'aria-label': `Delete ${s.name || 'saved game'}`,
            onclick: async () => {
              if (await guarded(() => API.deleteSaved(s.id).then(() => true))) this._refreshSaved();
            },
          }, 'Delete')));
    }));
  }

  async _resume(savedId) {
    const data = await guarded(() => API.resume(savedId));
    if (!data) return;
    this._adopt(data);
    this.apply(data.view, { animate: false });
    toast('Saved game resumed.', 'success', 2500);
  }
}
